/// Turns screens into what goes to the terminal, sending images again only when they change.
///
/// A sixel or kitty spine is tens of kilobytes; typing a title redraws the screen at every key, and sending
/// the picture each time would make the keys lag and the picture flicker. So a frame rewrites its text rows
/// in place (each ended by erase-to-end-of-line) and leaves the rows under an unchanged image alone; the screen
/// is cleared only when the images or the size change.
struct FrameWriter {
    private var lastOverlays: [ReviewScreen.Overlay]?
    private var lastSize: (columns: Int, rows: Int)?

    mutating func frame(lines: [String], overlays: [ReviewScreen.Overlay], columns: Int, rows: Int) -> String {
        let redraw = lastOverlays != overlays || lastSize?.columns != columns || lastSize?.rows != rows
        lastOverlays = overlays
        lastSize = (columns, rows)
        var covered = Set<Int>()
        if !redraw { for o in overlays { covered.formUnion(o.row..<(o.row + o.rows)) } }
        var out = redraw ? "\u{1B}[H\u{1B}[2J" : ""
        for (i, line) in lines.enumerated() where !covered.contains(i) {
            out += "\u{1B}[\(i + 1);1H" + line + "\u{1B}[K"
        }
        if redraw { for o in overlays { out += "\u{1B}[\(o.row + 1);\(o.column + 1)H" + o.payload } }
        return out
    }
}
