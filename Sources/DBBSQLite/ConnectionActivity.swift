/// What a connection and its statements share: whether user code may be running inside one of
/// its statements, and whether ``SQLiteConnection/close()`` was called meanwhile.
///
/// A statement holds it strongly (a class of its own, so that neither a statement nor the
/// connection needs a weak reference to the other on the hot path). `close()` called while a
/// statement runs — from a row's closure, a SQL function, a trace handler — does not finalize
/// that statement under its caller's feet: the statement's next step is refused, and the close
/// completes when the statement stops.
final class ConnectionActivity {
    /// How many steps and row callbacks are under way (nested when a callback steps another statement).
    @exclusivity(unchecked) var running = 0
    /// `close()` was called while ``running`` was above 0.
    @exclusivity(unchecked) var closeRequested = false
}
