#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds out whether the preview can listen on a port, so `serve` can suggest another one
/// instead of failing with a bare "address already in use".
public enum PortFinder {
    /// Whether a listening socket can be bound to `host:port` right now.
    ///
    /// The probe binds with `SO_REUSEADDR` on, like the server itself (Hummingbird's default):
    /// with it off, connections of a server that just quit, lingering in TIME_WAIT, would make a
    /// free port look taken, and an immediate `tessera serve` restart would be told to move.
    /// A port with a listener is refused either way. Every address `host` resolves to must bind.
    public static func isFree(host: String, port: Int) -> Bool {
        guard (1...65535).contains(port) else { return false }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var addresses: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &addresses) == 0, let first = addresses else { return false }
        defer { freeaddrinfo(first) }
        var boundAny = false
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            switch canListen(on: address.pointee) {
            case .listened: boundAny = true
            case .refused: return false
            case .unavailable: break  // e.g. ::1 on a machine without IPv6: not what the server will use
            }
            next = address.pointee.ai_next
        }
        return boundAny
    }

    /// The first free port after `port`, looking at most 100 ports further.
    public static func nextFree(host: String, after port: Int) -> Int? {
        let last = min(port + 100, 65535)
        guard port < last else { return nil }
        return (port + 1...last).first { isFree(host: host, port: $0) }
    }

    private enum Probe { case listened, refused, unavailable }

    private static func canListen(on address: addrinfo) -> Probe {
        let descriptor = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        guard descriptor >= 0 else { return .unavailable }
        defer { close(descriptor) }
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if bind(descriptor, address.ai_addr, address.ai_addrlen) != 0 || listen(descriptor, 1) != 0 {
            return errno == EADDRINUSE || errno == EACCES ? .refused : .unavailable
        }
        return .listened
    }
}
