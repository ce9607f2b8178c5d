import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import TesseraCLI

extension Serve {
    /// Telling a taken port from a free one, and suggesting the next.
    struct PortFinderTests {
        /// A listening socket on an ephemeral port of 127.0.0.1, closed by `close()`.
        struct OccupiedPort {
            let descriptor: Int32
            let port: Int

            init() throws {
                let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                address.sin_port = 0
                let bound = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                try #require(bound == 0 && listen(descriptor, 1) == 0)
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                _ = withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
                }
                self.descriptor = descriptor
                port = Int(UInt16(bigEndian: address.sin_port))
            }

            func close() { _ = Glibc.close(descriptor) }
        }

        @Test func aPortWithAListenerIsNotFree() throws {
            let occupied = try OccupiedPort()
            defer { occupied.close() }
            #expect(!PortFinder.isFree(host: "127.0.0.1", port: occupied.port))
        }

        @Test func aPortIsFreeAgainOnceTheListenerCloses() throws {
            let occupied = try OccupiedPort()
            occupied.close()
            #expect(PortFinder.isFree(host: "127.0.0.1", port: occupied.port))
        }

        @Test func theNextFreePortSkipsTheTakenOne() throws {
            let occupied = try OccupiedPort()
            defer { occupied.close() }
            let next = try #require(PortFinder.nextFree(host: "127.0.0.1", after: occupied.port - 1))
            #expect(next > occupied.port)
            #expect(PortFinder.isFree(host: "127.0.0.1", port: next))
        }

        @Test(arguments: [0, -1, 65536])
        func impossiblePortsAreNeverFree(port: Int) {
            #expect(!PortFinder.isFree(host: "127.0.0.1", port: port))
        }

        @Test func anUnresolvableHostHasNoFreePort() {
            #expect(!PortFinder.isFree(host: "no-such-host.invalid", port: 8000))
        }
    }
}
