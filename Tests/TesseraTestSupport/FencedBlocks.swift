/// The lines of each fenced code block of `language` in a Markdown `text`
/// (a block opens with a line that is exactly "```language" and closes with "```").
public func fencedBlocks(_ language: String, in text: String) -> [[String]] {
    var blocks: [[String]] = []
    var current: [String]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        if current == nil, line == "```" + language {
            current = []
        } else if let lines = current, line == "```" {
            blocks.append(lines)
            current = nil
        } else {
            current?.append(line)
        }
    }
    return blocks
}
