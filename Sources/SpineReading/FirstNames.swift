import Foundation

/// Given names and initials, for telling a name from a title in capitalised words: "Silent Spring" is
/// capitalised like a name, "Rachel Carson" is a name. The names are the shipped lexicon's (`SpineLexicon`:
/// 38 languages' given names), so the review's split offers and the tagger agree.
enum FirstNames {
    static func contains(_ word: String) -> Bool {
        SpineLexicon.shipped.isGiven(word.trimmingCharacters(in: .punctuationCharacters))
    }

    static func isInitial(_ word: String) -> Bool {
        // "J.", "J.R.R.", "Ma."
        let letters = word.filter(\.isLetter)
        return word.hasSuffix(".") && (1...2).contains(letters.count) && letters.first?.isUppercase == true
    }

    /// One letter and its full stop ("K."): a middle initial, never "Ma." nor "J.R.R.".
    static func isLetterInitial(_ word: String) -> Bool {
        word.count == 2 && isInitial(word)
    }
}
