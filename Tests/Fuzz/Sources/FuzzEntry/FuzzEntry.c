// SwiftPM links an executable with `--defsym main=TesseraFuzz_main`, and `-parse-as-library`
// (which libFuzzer needs) emits no such symbol. This is it: it hands over to libFuzzer's driver,
// which calls LLVMFuzzerTestOneInput (defined in Swift, TesseraFuzz.swift) for every input.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int TesseraFuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
