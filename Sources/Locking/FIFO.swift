/// Elements in the order they came: appended at the back, taken from the
/// front without moving the others; the storage is kept for reuse once
/// every element was taken.
package struct FIFO<Element> {
    private var elements: [Element] = []
    private var head = 0

    package init() {}

    package mutating func append(_ element: Element) {
        elements.append(element)
    }

    /// The oldest element, taken out; nil when there is none.
    package mutating func popFirst() -> Element? {
        guard head < elements.count else { return nil }
        let first = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        }
        return first
    }
}
