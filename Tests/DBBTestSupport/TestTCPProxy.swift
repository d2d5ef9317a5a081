import Foundation
import Synchronization

/// A TCP proxy on a free loopback port in front of a server on another, which a test arms to
/// cut a connection at an exact point of the conversation: when the client sends bytes
/// containing a given text (a statement), either before they reach the server or right after
/// — the server then gets them and answers, and the answer is dropped. What a network that
/// fails mid-conversation does, on cue.
///
/// ```swift
/// let proxy = try TestTCPProxy(upstreamPort: server.port)
/// proxy.arm(.afterForwarding("COMMIT"))   // the server commits; the client never hears it
/// ```
public final class TestTCPProxy: @unchecked Sendable {
    // @unchecked Sendable: the mutable state is in `state`; the sockets are the pump threads'.
    /// Where a cut happens.
    public enum Cut: Sendable {
        /// The client's bytes with this text never reach the server; both sides are closed.
        case beforeForwarding(String)
        /// The server gets the client's bytes with this text; the client's side is closed at
        /// once, the server's once the server has answered (its answer is dropped).
        case afterForwarding(String)
        /// The client's bytes with this text, and all it sends after them, never reach the
        /// server, and nothing comes back; the connection stays open: a server gone silent.
        case silence(String)
    }

    /// The port clients connect to.
    public let port: Int
    private let upstreamPort: Int
    private let listener: Int32
    private struct State {
        var armed: Cut?
        /// How many more connections the armed cut cuts.
        var armedTimes = 0
        var cuts = 0
        var accepted = 0
        var closed = false
    }
    private let state = Mutex(State())

    /// Starts listening on a free loopback port, forwarding each connection to `upstreamPort`.
    public init(upstreamPort: Int) throws {
        self.upstreamPort = upstreamPort
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw TestPostgresError(message: "socket() failed") }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound, listen(listener, 64) == 0 else {
            close(listener)
            throw TestPostgresError(message: "the proxy cannot listen on a loopback port")
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [weak self] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0, let self else { return }
                self.state.withLock { $0.accepted += 1 }
                self.serve(client)
            }
        }.start()
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Cuts the next connection whose client sends `cut`'s text — or the next `times` ones.
    public func arm(_ cut: Cut, times: Int = 1) {
        state.withLock { ($0.armed, $0.armedTimes) = (cut, times) }
    }

    /// How many connections were cut.
    public var cuts: Int { state.withLock { $0.cuts } }

    /// How many connections clients opened through the proxy.
    public var accepted: Int { state.withLock { $0.accepted } }

    // MARK: - Pumping

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    private func serve(_ client: Int32) {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard server >= 0, connected else {
            close(client)
            if server >= 0 { close(server) }
            return
        }
        let link = Link(client: client, server: server)
        Thread { [weak self] in self?.pumpClientToServer(link) ?? link.end() }.start()
        Thread { Self.pumpServerToClient(link) }.start()
    }

    /// The two sockets of one proxied connection, closed once both pumps are done.
    private final class Link: @unchecked Sendable {
        let client: Int32
        let server: Int32
        /// The client side was cut after forwarding: the server's next answer ends the link.
        let clientCut = Atomic<Bool>(false)
        private let pumpsLeft = Atomic<Int>(2)

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }

        /// One pump is done: wakes the other (unless `leavingServer`: the server is still to
        /// answer); the last closes both sockets.
        func end(leavingServer: Bool = false) {
            shutdown(client, Int32(SHUT_RDWR))
            if !leavingServer { shutdown(server, Int32(SHUT_RDWR)) }
            if pumpsLeft.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 {
                close(client)
                close(server)
            }
        }
    }

    private func pumpClientToServer(_ link: Link) {
        var leavingServer = false
        defer { link.end(leavingServer: leavingServer) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var tail: [UInt8] = []  // the end of the previous chunk, for a text split across two
        while true {
            let count = read(link.client, &buffer, buffer.count)
            guard count > 0 else { return }
            let chunk = Array(buffer[0..<count])
            let cut = trigger(in: tail + chunk, endingAfter: tail.count)
            tail = Array(chunk.suffix(64))
            switch cut {
            case .beforeForwarding?:
                return
            case .silence?:
                link.clientCut.store(true, ordering: .sequentiallyConsistent)
                while read(link.client, &buffer, buffer.count) > 0 {}
                return
            case .afterForwarding?:
                // Marked before the bytes go: the server's answer must not reach the client,
                // however fast it comes.
                link.clientCut.store(true, ordering: .sequentiallyConsistent)
                guard Self.write(chunk, to: link.server) else { return }
                leavingServer = true
                return  // the other pump ends the link once the server answered
            case nil:
                guard Self.write(chunk, to: link.server) else { return }
            }
        }
    }

    private static func pumpServerToClient(_ link: Link) {
        defer { link.end() }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(link.server, &buffer, buffer.count)
            guard count > 0, !link.clientCut.load(ordering: .sequentiallyConsistent) else { return }
            guard write(Array(buffer[0..<count]), to: link.client) else { return }
        }
    }

    /// The armed cut when `bytes` contain its text ending after offset `old` (in the bytes
    /// just read, not only in those looked at before), disarming it after its last time; else `nil`.
    private func trigger(in bytes: [UInt8], endingAfter old: Int) -> Cut? {
        state.withLock { state in
            guard let armed = state.armed else { return nil }
            let text: String
            switch armed {
            case .beforeForwarding(let t), .afterForwarding(let t), .silence(let t): text = t
            }
            let needle = Array(text.utf8)
            let first = max(0, old - needle.count + 1)
            guard !needle.isEmpty, bytes.count - needle.count >= first,
                (first...(bytes.count - needle.count)).contains(where: {
                    bytes[$0..<($0 + needle.count)].elementsEqual(needle)
                })
            else { return nil }
            state.armedTimes -= 1
            if state.armedTimes <= 0 { state.armed = nil }
            state.cuts += 1
            return armed
        }
    }

    private static func write(_ bytes: [UInt8], to socket: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            // send with MSG_NOSIGNAL: a peer gone is an error here, not a SIGPIPE for the process.
            let written = bytes[offset...].withUnsafeBytes {
                send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
