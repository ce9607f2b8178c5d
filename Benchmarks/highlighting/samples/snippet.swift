@MainActor
func load() async throws {
    async let a = fetch(1)
    print("Got \(try await a) items")
}
