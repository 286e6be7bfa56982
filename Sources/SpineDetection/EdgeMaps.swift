import CPixelLoops
import ShelfImage

/// Per-pixel cues at working resolution, as Float planes the line integrals sum over.
///
/// Edges take the strongest of the three colour channels so that two spines of equal brightness but
/// different hue still part; each edge is split by orientation so a spine boundary (near-vertical) and a
/// book top or shelf board (near-horizontal) feed different cues.
struct EdgeMaps {
    let width: Int
    let height: Int
    /// 0...1 strength of a near-vertical edge.
    var vertical: [Float]
    /// 0...1 strength of a near-horizontal edge.
    var horizontal: [Float]
    /// Luma 0...255.
    var luma: [Float]
    /// Colour planes 0...255.
    var red: [Float]
    var green: [Float]
    var blue: [Float]

    init(_ image: RGBImage, edgeFloor: Double, edgeCap: Double) {
        let w = image.width, h = image.height, n = w * h
        width = w; height = h
        // Six arrays of their own (not copies of one, which the first write would copy again); the C loop
        // fills every element of each.
        var vert = [Float](repeating: 0, count: n), horiz = [Float](repeating: 0, count: n)
        var lum = [Float](repeating: 0, count: n), r = [Float](repeating: 0, count: n)
        var g = [Float](repeating: 0, count: n), b = [Float](repeating: 0, count: n)
        image.pixels.withUnsafeBufferPointer { px in
            r.withUnsafeMutableBufferPointer { rp in g.withUnsafeMutableBufferPointer { gp in b.withUnsafeMutableBufferPointer { bp in
            lum.withUnsafeMutableBufferPointer { lp in
            vert.withUnsafeMutableBufferPointer { vp in horiz.withUnsafeMutableBufferPointer { hp in
                shelf_edge_maps(px.baseAddress, w, h, Float(edgeFloor), Float(max(1, edgeCap - edgeFloor)),
                                rp.baseAddress, gp.baseAddress, bp.baseAddress, lp.baseAddress, vp.baseAddress, hp.baseAddress)
            }}}}}}
        }
        vertical = vert; horizontal = horiz; luma = lum; red = r; green = g; blue = b
    }
}
