import Foundation

/// Publishers and imprints whose name or logo is printed at the foot of the spine, lowercased and unaccented:
/// English, German, Spanish, Catalan, French and Italian houses common on home shelves. Printed alone, such
/// a name is neither title nor author.
enum Publishers {
    static func isPublisher(_ text: String) -> Bool {
        let key = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .filter { $0.isLetter || $0 == " " }
            .split(separator: " ").joined(separator: " ")
        return names.contains(key) || names.contains(key.replacingOccurrences(of: " books", with: ""))
            || names.contains(key.replacingOccurrences(of: " verlag", with: ""))
    }

    private static let names: Set<String> = [
        // English
        "penguin", "penguin classics", "vintage", "vintage classics", "picador", "faber", "faber and faber", "bantam",
        "ballantine", "del rey", "orbit", "harper", "harpercollins", "harper perennial", "random house", "anchor",
        "knopf", "doubleday", "scribner", "simon schuster", "pan macmillan", "macmillan", "hodder", "headline",
        "bloomsbury", "virago", "abacus", "corgi", "fontana", "puffin", "oxford", "wordsworth", "everyman",
        "signet", "pocket", "berkley", "daw", "gollancz", "granta", "canongate", "sceptre", "viking", "hamlyn",
        "dorling kindersley", "lonely planet", "rough guides", "o reilly", "oreilly", "wiley", "springer", "mit press",
        // German
        "heyne", "knaur", "goldmann", "dtv", "fischer", "rowohlt", "rororo", "diogenes", "suhrkamp", "ullstein", "piper",
        "btb", "blanvalet", "droemer", "luebbe", "lubbe", "bastei", "bastei lubbe", "kiepenheuer", "hanser", "reclam",
        "aufbau", "carlsen", "ravensburger", "oetinger", "dumont", "kosmos", "ars edition",
        "braumuller", "emons", "gmeiner", "penguin verlag", "cbt", "cbj",
        // Spanish and Catalan
        "anagrama", "planeta", "alfaguara", "tusquets", "destino", "debolsillo", "salamandra", "seix barral", "siruela",
        "acantilado", "alianza", "catedra", "austral", "booket", "edhasa", "lumen", "empuries",
        "ediciones b", "grijalbo", "plaza janes", "edebe", "bruguera", "espasa",
        // French and Italian
        "gallimard", "folio", "livre de poche", "le livre de poche", "pocket", "seuil", "flammarion",
        "albin michel", "actes sud", "jai lu", "grasset", "larousse", "mondadori", "einaudi", "feltrinelli", "adelphi",
        "bompiani", "garzanti", "rizzoli",
    ]
}
