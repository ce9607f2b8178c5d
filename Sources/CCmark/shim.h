#ifndef TESSERA_CCMARK_SHIM_H
#define TESSERA_CCMARK_SHIM_H
#include <cmark.h>
#endif
