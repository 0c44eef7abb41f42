/// Random spec names written two ways that Unicode calls canonically
/// equivalent (one name by the contract) while their bytes differ: composed
/// and decomposed letters, combining marks in either order, singletons
/// (the Kelvin sign for K), Hangul syllables and their jamo.
public enum EquivalentNames {
    /// Each entry: spellings of one character, all canonically equivalent.
    static let spellings: [[String]] = [
        ["\u{E9}", "e\u{301}"],
        ["\u{F1}", "n\u{303}"],
        ["\u{FC}", "u\u{308}"],
        ["\u{C5}", "A\u{30A}", "\u{212B}"],
        ["K", "\u{212A}"],
        ["\u{3A9}", "\u{2126}"],
        ["\u{1D6}", "u\u{308}\u{304}", "\u{FC}\u{304}"],
        ["\u{1EC7}", "e\u{323}\u{302}", "e\u{302}\u{323}", "\u{1EB9}\u{302}"],
        ["\u{AC00}", "\u{1100}\u{1161}"],
        [";", "\u{37E}"],
    ]
    static let plain = Array("abcdefghijklmnopqrstuvwxyz0123456789 -_/.".unicodeScalars).map(String.init)

    /// Two spellings of one random name, whose bytes differ.
    public static func pair(using random: inout SeededRandom) -> (String, String) {
        var first = ""
        var second = ""
        var differ = false
        for index in 0..<random.int(2...8) {
            if index == 0 || random.chance(0.5) {
                let options = spellings[random.int(0...(spellings.count - 1))]
                let a = random.int(0...(options.count - 1))
                var b = random.int(0...(options.count - 1))
                if index == 0, b == a { b = (a + 1) % options.count }
                first += options[a]
                second += options[b]
                differ = differ || a != b
            } else {
                let letter = plain[random.int(0...(plain.count - 1))]
                first += letter
                second += letter
            }
        }
        precondition(differ && first == second && Array(first.utf8) != Array(second.utf8))
        return (first, second)
    }
}
