//! The event record's size: a run keeps up to a million events, and the page's wasm memory
//! never shrinks, so every byte here is a megabyte there. README and ARCHITECTURE state this
//! number; a change to it must change them too.

#[test]
fn an_event_is_64_bytes() {
    // 8 (time) + 4 (node) + 4 + 4 + 2 + 2 (order, request, attempt, pod, one above their value)
    // + 16 (key) + 24 (kind: a send of a 16-byte response payload is the largest; a `Retry-After`
    // kept as a plain `Option<u32>` made it 32, and the event 72).
    assert_eq!(std::mem::size_of::<idemlab_core::trace::Event>(), 64);
    assert_eq!(std::mem::size_of::<idemlab_core::trace::EventKind>(), 24);
}
