import Foundation
import BookModel

/// Seed 004 rule 3: provider subjects ("Fiction / Science Fiction / General", "Dystopian fiction",
/// "Ciencia ficción") mapped onto the canonical genre list, so `subjectTags` reads the same whichever
/// provider filled it. A subject maps by its normalized words; unmapped subjects are dropped rather than
/// copied, since provider subject lists run to hundreds of catalogue headings.
public enum SubjectTags {
    /// Canonical tag ← words or phrases (normalized) that signal it. Order is the output order.
    static let table: [(tag: String, signals: [String])] = [
        ("Science Fiction", ["science fiction", "sci fi", "ciencia ficcion", "ciencia ficcio", "science-fiction"]),
        ("Fantasy", ["fantasy", "fantasia", "fantastic fiction"]),
        ("Dystopian", ["dystopia", "dystopian", "dystopias", "distopia"]),
        ("Mystery", ["mystery", "detective", "misterio", "policiaca", "crime fiction"]),
        ("Thriller", ["thriller", "suspense"]),
        ("Romance", ["romance", "love stories", "romantica"]),
        ("Horror", ["horror", "terror", "ghost stories"]),
        ("Biography", ["biography", "autobiography", "biografia", "memoir", "memoirs"]),
        ("History", ["history", "historia", "historical"]),
        ("Science", ["science", "physics", "biology", "chemistry", "mathematics", "ciencia", "ciencies", "astronomy"]),
        ("Philosophy", ["philosophy", "filosofia"]),
        ("Poetry", ["poetry", "poesia", "poems"]),
        ("Self-Help", ["self help", "self-help", "autoayuda", "personal development"]),
        ("Classics", ["classics", "classic literature", "clasicos", "classics (literature)"]),
        ("Young Adult", ["young adult", "juvenile fiction", "juvenil"]),
        ("Children's", ["children", "childrens", "infantil", "picture books"]),
        ("Non-Fiction", ["nonfiction", "non fiction", "essays", "ensayo"]),
        ("Fiction", ["fiction", "novel", "novela", "novel·la", "literary fiction", "narrativa"]),
    ]

    public static func normalize(_ subjects: [String]) -> [String] {
        var out: [String] = []
        for subject in subjects {
            // Google's "A / B / General" is a path: each level is a subject of its own.
            for part in subject.split(separator: "/") {
                let whole = " " + TextNormalization.normalize(String(part)) + " "
                // "Science fiction" is neither "Science" nor plain "Fiction": once it has named its tag,
                // the phrase is taken out before the other tags look.
                let rest = whole.replacingOccurrences(of: " science fiction ", with: " ")
                for (tag, signals) in table where !out.contains(tag) {
                    let text = tag == "Science Fiction" ? whole : rest
                    if signals.contains(where: { text.contains(" " + TextNormalization.normalize($0) + " ") }) { out.append(tag) }
                }
            }
            if out.count >= Rules.maxGenres { break }
        }
        return Array(out.prefix(Rules.maxGenres))
    }
}
