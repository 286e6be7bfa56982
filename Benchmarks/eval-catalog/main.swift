// eval-catalog: how well real OCR readings of real library spines snap to that library's catalogue.
//
//   swift run -c release eval-catalog [--dataset DIR] [--fit] [--failures N] [--slow] [--explain READING]...
//
// --fit refits the ranker and the calibration on the training half and prints the constants that
// CatalogRanking.standard / CatalogCalibration.standard hold; --failures prints training-half misses only;
// --slow lists the slowest queries; --explain prints the candidates for a reading with all their features.
// Rows with no annotated title (merged segmentations) can never be hits, so top-1 is also printed over titled
// rows only. Timings are printed as wall time and as this thread's CPU time (the machine
// may be shared).
//
// Rows: spine_annotations.csv with not_book=False and not_in_db=False. A top-1 hit is a best match with the
// annotated ISBN or, where that is empty, the same normalized title. Rows are split by photo (image_name hash)
// into a training half (used for any fitting) and a held-out half; figures are printed for both and for all.
import BookModel
import Catalog
import Foundation
import ShelfScanTestSupport

var datasetDir = "../shared/datasets/library-dataset"
var fit = false
var showFailures = 0
var explainQueries: [String] = []
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--dataset": datasetDir = args.popFirst() ?? datasetDir
    case "--fit": fit = true
    case "--slow": break
    case "--failures": showFailures = Int(args.popFirst() ?? "20") ?? 20
    case "--explain": explainQueries.append(args.popFirst() ?? "")
    default: print("usage: eval-catalog [--dataset DIR] [--fit] [--failures N] [--explain READING]..."); exit(2)
    }
}
let cataloguePath = datasetDir + "/catalogue.csv"
let annotationsPath = datasetDir + "/spine_annotations.csv"
guard FileManager.default.fileExists(atPath: cataloguePath), FileManager.default.fileExists(atPath: annotationsPath) else {
    print("eval-catalog: dataset not found at \(datasetDir); skipping (pass --dataset DIR)")
    exit(0)
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }
/// This thread's CPU time: unlike wall time it does not count the time other processes held the core, so it
/// stays meaningful on a loaded machine.
func cpuNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
}

// MARK: Load and index
var t0 = now(), c0 = cpuNow()
let (catalog, rowErrors) = try Catalog.load(csvAt: cataloguePath)
let loadMs = now() - t0, loadCPU = cpuNow() - c0
t0 = now(); c0 = cpuNow()
let firstIndex = CatalogIndex(catalog)
let buildMs = now() - t0, buildCPU = cpuNow() - c0
print(String(format: "catalogue: %d entries (%d rows skipped); load %.0f ms (CPU %.0f), index build %.0f ms (CPU %.0f)",
             catalog.entries.count, rowErrors.count, loadMs, loadCPU, buildMs, buildCPU))

// --explain: the top candidates for one reading with every ranking feature, to see why a reading misses.
if !explainQueries.isEmpty {
    for q in explainQueries {
        print("OCR: \(q)")
        for m in firstIndex.match(q, top: 8) {
            let parts = zip(MatchFeatures.names, m.features.vector).map { String(format: "%@ %.2f", $0, $1) }
            print(String(format: "  %.3f raw %.3f  ", m.score, m.features.raw) +
                  "\(m.entry.title) / \(m.entry.authors.first ?? "") / \(m.entry.tag) [\(m.entry.isbn)]\n    " +
                  parts.joined(separator: "  "))
        }
    }
    exit(0)
}

// MARK: Annotated rows
typealias Row = AnnotatedSpine
let rows = try AnnotatedSpine.load(csvAt: annotationsPath)

func isHit(_ m: CatalogMatch, _ row: Row) -> Bool {
    if !row.isbn.isEmpty { return m.entry.isbn.trimmingCharacters(in: .whitespaces) == row.isbn }
    return TextNormalization.normalize(m.entry.title) == TextNormalization.normalize(row.title)
}

func pct(_ x: Int, _ n: Int) -> String { n == 0 ? "-" : String(format: "%.4f", Double(x) / Double(n)) }

// MARK: Match every row
struct Outcome { var top1: Bool; var top5: Bool; var score: Double; var features: MatchFeatures?; var ms: Double; var cpuMs: Double }
func runAll(_ index: CatalogIndex) -> [Outcome] {
    var outcomes: [Outcome] = []
    for row in rows {
        let t = now(), c = cpuNow()
        let matches = index.match(row.ocr, top: 5)
        let ms = now() - t, cpuMs = cpuNow() - c
        outcomes.append(Outcome(top1: matches.first.map { isHit($0, row) } ?? false,
                                top5: matches.contains { isHit($0, row) },
                                score: matches.first?.score ?? 0, features: matches.first?.features, ms: ms, cpuMs: cpuMs))
    }
    return outcomes
}

var index = firstIndex
var calibration = CatalogCalibration.standard
if fit {
    // 1. Ranking weights: listwise softmax over each training reading's candidates.
    var lists: [[([Double], Bool)]] = []
    var recall = 0, titled = 0
    for row in rows where row.train && !row.title.trimmingCharacters(in: .whitespaces).isEmpty {
        titled += 1
        let all = firstIndex.match(row.ocr, top: 10_000)
        let list = all.map { ($0.features.vector, isHit($0, row)) }
        if list.contains(where: \.1) { recall += 1; lists.append(list) }
    }
    print("candidate recall (training half, titled rows): \(pct(recall, titled))")
    let ranking = fitRanking(lists, start: [Double](repeating: 0.5, count: MatchFeatures.names.count))
    print("fitted ranking: [" + ranking.map { String(format: "%.4f", $0) }.joined(separator: ", ") + "]  // " +
          MatchFeatures.names.joined(separator: ", "))
    index = CatalogIndex(catalog, ranking: CatalogRanking(weights: ranking))
    // 2. Calibration on the re-ranked top-1 features.
    let prelim = runAll(index)
    let train = zip(rows, prelim).filter { $0.0.train }.compactMap { r, o in o.features.map { ($0, o.top1) } }
    calibration = fitLogistic(train, start: calibration)
    // Threshold: the lowest score at which the training half shows precision >= 95% with 95% one-sided
    // confidence (1.645 standard errors), so other readings of the same kind still see >= 95% rather than
    // 95% give or take sampling noise.
    let scored = train.map { (calibration.probability($0.0), $0.1) }
    calibration.acceptThreshold = thresholdFor95(scored, standardErrors: 1.645) ?? 0.5
    print("fitted calibration: [" + calibration.weights.map { String(format: "%.4f", $0) }.joined(separator: ", ") +
          String(format: "], threshold %.4f  // ", calibration.acceptThreshold) + CatalogCalibration.names.joined(separator: ", "))
    // Held-out log-loss, to compare calibration inputs honestly.
    let held = zip(rows, prelim).filter { !$0.0.train }.compactMap { r, o in o.features.map { ($0, o.top1) } }
    let loss = held.map { f, y in -log(max(1e-9, y ? calibration.probability(f) : 1 - calibration.probability(f))) }
    print(String(format: "held-out log-loss %.4f", loss.reduce(0, +) / Double(max(1, loss.count))))
    index = CatalogIndex(catalog, ranking: CatalogRanking(weights: ranking), calibration: calibration)
}
let outcomes = runAll(index)

func fitRanking(_ lists: [[([Double], Bool)]], start: [Double]) -> [Double] {
    var w = start
    let d = w.count
    var m = [Double](repeating: 0, count: d), v = [Double](repeating: 0, count: d)
    let rate = 0.05, l2 = 1e-4
    for step in 1...3000 {
        var g = [Double](repeating: 0, count: d)
        var loss = 0.0
        for list in lists {
            let scores = list.map { zip(w, $0.0).map(*).reduce(0, +) }
            let top = scores.max()!
            let ex = scores.map { exp($0 - top) }
            let z = ex.reduce(0, +)
            let zHit = zip(ex, list).filter { $0.1.1 }.map(\.0).reduce(0, +)
            loss -= log(zHit / z)
            for (k, item) in list.enumerated() {
                let coef = ex[k] / z - (item.1 ? ex[k] / zHit : 0)
                for j in 0..<d { g[j] += coef * item.0[j] }
            }
        }
        for j in 0..<d {
            g[j] = g[j] / Double(lists.count) + l2 * w[j]
            m[j] = 0.9 * m[j] + 0.1 * g[j]
            v[j] = 0.999 * v[j] + 0.001 * g[j] * g[j]
            let mh = m[j] / (1 - pow(0.9, Double(step))), vh = v[j] / (1 - pow(0.999, Double(step)))
            w[j] -= rate * mh / (vh.squareRoot() + 1e-8)
        }
        if step % 1000 == 0 { print(String(format: "  ranking fit step %d loss %.4f", step, loss / Double(lists.count))) }
    }
    return w
}

func fitLogistic(_ data: [(MatchFeatures, Bool)], start: CatalogCalibration) -> CatalogCalibration {
    // Newton's method with a small ridge term, from zero.
    let d = CatalogCalibration.names.count
    var w = [Double](repeating: 0, count: d)
    for _ in 0..<30 {
        var g = [Double](repeating: 0, count: d)
        var h = [[Double]](repeating: [Double](repeating: 0, count: d), count: d)
        for (f, y) in data {
            let v = CatalogCalibration.inputs(f)
            let z = zip(w, v).map(*).reduce(0, +)
            let p = 1 / (1 + exp(-z))
            for i in 0..<d {
                g[i] += (p - (y ? 1 : 0)) * v[i]
                for j in 0..<d { h[i][j] += p * (1 - p) * v[i] * v[j] }
            }
        }
        for i in 0..<d { g[i] += 0.01 * w[i]; h[i][i] += 0.01 }
        let step = solve(h, g)
        for i in 0..<d { w[i] -= step[i] }
    }
    var c = start
    c.weights = w
    return c
}

func solve(_ a: [[Double]], _ b: [Double]) -> [Double] {
    var m = a, y = b
    let n = y.count
    for c in 0..<n {
        let p = (c..<n).max { abs(m[$0][c]) < abs(m[$1][c]) }!
        m.swapAt(c, p); y.swapAt(c, p)
        guard abs(m[c][c]) > 1e-12 else { continue }
        for r in 0..<n where r != c {
            let k = m[r][c] / m[c][c]
            for j in c..<n { m[r][j] -= k * m[c][j] }
            y[r] -= k * y[c]
        }
    }
    return (0..<n).map { abs(m[$0][$0]) > 1e-12 ? y[$0] / m[$0][$0] : 0 }
}

/// The lowest score whose accepted set (score >= it) still has >= 95% precision, scanning best-first; with
/// `standardErrors` > 0, precision must clear 95% by that many binomial standard errors of the accepted count.
func thresholdFor95(_ scored: [(Double, Bool)], standardErrors: Double = 0) -> Double? {
    let sorted = scored.sorted { $0.0 > $1.0 }
    var hits = 0, best: Double? = nil
    for (i, (s, hit)) in sorted.enumerated() {
        if hit { hits += 1 }
        let n = Double(i + 1)
        let nextDiffers = i + 1 == sorted.count || sorted[i + 1].0 < s
        if nextDiffers && Double(hits) >= (0.95 + standardErrors * (0.95 * 0.05 / n).squareRoot()) * n { best = s }
    }
    return best
}

// MARK: Report
@MainActor func report(_ name: String, _ keep: (Row) -> Bool) {
    let sel = zip(rows, outcomes).filter { keep($0.0) }.map(\.1)
    let n = sel.count
    let top1 = sel.filter(\.top1).count, top5 = sel.filter(\.top5).count
    let scored = sel.map { ($0.score, $0.top1) }
    let oracle = thresholdFor95(scored)
    let oracleAccepted = oracle.map { t in sel.filter { $0.score >= t }.count } ?? 0
    let accepted = sel.filter { $0.score >= calibration.acceptThreshold }
    let acceptedHits = accepted.filter(\.top1).count
    print("\(name) (\(n) rows): top-1 \(pct(top1, n))  top-5 \(pct(top5, n))  " +
          "accepted at shipped threshold \(pct(accepted.count, n)) (precision \(pct(acceptedHits, accepted.count)))  " +
          "best share at >=95% precision \(pct(oracleAccepted, n))")
}
print(String(format: "shipped threshold: %.4f", calibration.acceptThreshold))
report("train half  ", { $0.train })
report("held-out    ", { !$0.train })
report("all         ", { _ in true })
report("all, titled ", { !$0.title.trimmingCharacters(in: .whitespaces).isEmpty })
report("held, titled", { !$0.train && !$0.title.trimmingCharacters(in: .whitespaces).isEmpty })
// Reliability on the held-out half: within each score band, how often the top match is right.
do {
    let held = zip(rows, outcomes).filter { !$0.0.train }.map(\.1)
    var parts: [String] = []
    for (lo, hi) in [(0.0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 0.9), (0.9, 1.01)] {
        let band = held.filter { $0.score >= lo && $0.score < hi }
        guard !band.isEmpty else { continue }
        parts.append(String(format: "[%.1f,%.1f) n=%d right %.2f", lo, min(hi, 1), band.count,
                            Double(band.filter(\.top1).count) / Double(band.count)))
    }
    print("held-out reliability: " + parts.joined(separator: "  "))
    let half = held.filter { $0.score >= 0.5 }
    print(String(format: "held-out at score >= 0.5 (more likely right than wrong): accepted %.4f, precision %.4f",
                 Double(half.count) / Double(held.count), Double(half.filter(\.top1).count) / Double(max(1, half.count))))
}
for (name, times) in [("wall", outcomes.map(\.ms).sorted()), ("thread CPU", outcomes.map(\.cpuMs).sorted())] {
    print(String(format: "ms/query (%@): median %.3f  p95 %.3f  mean %.3f  max %.3f (%d queries)", name,
                 times[times.count / 2], times[Int(Double(times.count) * 0.95)],
                 times.reduce(0, +) / Double(times.count), times.last!, times.count))
}
var loadAverage = [Double](repeating: 0, count: 3)
if getloadavg(&loadAverage, 3) == 3 { print(String(format: "machine load average while measuring: %.2f", loadAverage[0])) }

if CommandLine.arguments.contains("--slow") {
    let slow = zip(rows, outcomes).sorted { $0.1.ms > $1.1.ms }.prefix(8)
    for (r, o) in slow { print(String(format: "  %.2f ms, %d words: %@", o.ms, TextNormalization.tokens(r.ocr).count, r.ocr)) }
}
// Where a query's time goes: text normalization alone, for comparison with the whole match.
do {
    let t = now()
    var n = 0
    for row in rows { n += TextNormalization.tokens(row.ocr).count }
    print(String(format: "  of which normalizing the reading: %.3f ms/query", (now() - t) / Double(rows.count)))
}

if showFailures > 0 {
    // How the training-half misses split: a tie the reading cannot break, the right book ranked 2-5, or lower.
    var tied = 0, near = 0, far = 0
    for (row, o) in zip(rows, outcomes) where row.train && !o.top1 && !row.title.isEmpty {
        let m = index.match(row.ocr, top: 5)
        guard let first = m.first else { far += 1; continue }
        if m.contains(where: { isHit($0, row) && $0.features.raw == first.features.raw }) { tied += 1 }
        else if m.contains(where: { isHit($0, row) }) { near += 1 } else { far += 1 }
    }
    print("training-half misses with a title: \(tied) exact ties, \(near) ranked 2-5, \(far) lower")
    print("\n-- training-half misses --")
    var shown = 0
    for (row, o) in zip(rows, outcomes) where row.train && !o.top1 && !row.title.isEmpty && shown < showFailures {
        shown += 1
        var m = Array(index.match(row.ocr, top: 5).prefix(2))
        if let hit = index.match(row.ocr, top: 50).first(where: { isHit($0, row) }), !m.contains(hit) { m.append(hit) }
        print("OCR: \(row.ocr)\n  want: \(row.title) [\(row.isbn)]")
        for c in m {
            let f = c.features
            print(String(format: "  got %.3f raw %.3f t%.2f a%.2f g%.2f q%.2f m%.3f: %@ / %@ / %@ [%@]", c.score, f.raw, f.title,
                         f.author, f.tag, f.query, f.margin, c.entry.title, c.entry.authors.first ?? "", c.entry.tag, c.entry.isbn))
        }
    }
}
