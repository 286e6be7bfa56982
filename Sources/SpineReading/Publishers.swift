/// Publishers and imprints whose name or logo is printed at the foot of the spine: the shipped lexicon's list
/// (`SpineLexicon`: the catalogue's publishers and German, French, English, Spanish and Italian houses).
/// Printed alone, such a name is neither title nor author.
enum Publishers {
    static func isPublisher(_ text: String) -> Bool {
        SpineLexicon.shipped.isPublisher(text)
    }
}
