extension ImageInfo {
    /// Maps a point from upright pixel coordinates (what `decode` returns) to stored coordinates (what
    /// `decode` returns with `applyOrientation: false`).
    ///
    /// Why: cropping spines at full resolution from a portrait phone photo would otherwise rotate all
    /// 12 MP first (~25 ms); mapping the quads instead lets `warped` read the stored image directly.
    /// Coordinates are continuous, origin top-left, pixel (i, j) covering [i, i+1) x [j, j+1), in full
    /// resolution; scale points from a reduced decode up first.
    public func storedPoint(fromUpright p: Point) -> Point {
        let w = Double(width), h = Double(height)
        switch orientation {
        case 2: return Point(x: w - p.x, y: p.y)
        case 3: return Point(x: w - p.x, y: h - p.y)
        case 4: return Point(x: p.x, y: h - p.y)
        case 5: return Point(x: p.y, y: p.x)
        case 6: return Point(x: p.y, y: h - p.x)
        case 7: return Point(x: w - p.y, y: h - p.x)
        case 8: return Point(x: w - p.y, y: p.x)
        default: return p
        }
    }

    /// `storedPoint(fromUpright:)` for each corner; the corner roles (top-left of the spine...) stay put,
    /// so `warped` on the stored image yields the same upright crop.
    public func storedQuad(fromUpright q: Quad) -> Quad {
        Quad(topLeft: storedPoint(fromUpright: q.topLeft), topRight: storedPoint(fromUpright: q.topRight),
             bottomRight: storedPoint(fromUpright: q.bottomRight), bottomLeft: storedPoint(fromUpright: q.bottomLeft))
    }
}
