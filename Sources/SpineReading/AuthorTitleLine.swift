/// An author's name and a title read as one line ("Kurt Goetz Ergötzliche Musik"), told apart for a
/// reviewer who is offered the split instead of retyping both. Uses the splitter's own test of what a
/// name looks like, so review and reading agree.
public enum AuthorTitleLine {
    /// Every way to read `line` as a name of two to four words at its start (shortest first: most names
    /// are two words), then at its end, with the rest as the title. Empty when no end of the line looks
    /// like a name or nothing would be left for the title.
    public static func splits(_ line: String) -> [(author: String, title: String)] {
        let words = line.split(separator: " ").map(String.init)
        guard words.count >= 3 else { return [] }
        var out: [(author: String, title: String)] = []
        for n in 2...min(4, words.count - 1) {
            let head = words.prefix(n).joined(separator: " ")
            if TitleSplitter.looksLikeName(head) { out.append((head, words.dropFirst(n).joined(separator: " "))) }
        }
        for n in 2...min(4, words.count - 1) {
            let tail = words.suffix(n).joined(separator: " ")
            if TitleSplitter.looksLikeName(tail) { out.append((tail, words.dropLast(n).joined(separator: " "))) }
        }
        return out
    }
}
