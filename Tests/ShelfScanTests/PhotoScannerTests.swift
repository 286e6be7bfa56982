import BookModel
import Foundation
import Library
import LibraryCore
import ShelfImage
import ShelfScanTestSupport
import SpineReading
import TextCue
import Testing
@testable import ShelfScan

/// The pipeline on one photo drawn in code, with the real detector and the real store.
struct PhotoScannerTests {
    static func photo(seed: UInt64 = 7, spineCount: Int = 6) throws -> (path: String, fixture: ShelfFixture, dir: URL) {
        let dir = try ShelfscanProcess.temporaryDirectory("scanner")
        let fixture = ShelfFixture.make(width: 800, height: 450, spineCount: spineCount, seed: seed)
        let path = dir.appendingPathComponent("shelf.jpg").path
        try Data(fixture.image.jpegData(quality: 92)).write(to: URL(fileURLWithPath: path))
        return (path, fixture, dir)
    }

    static func scanner(library: LibraryStore?, rescan: Bool = false) -> PhotoScanner {
        var configuration = ScanConfiguration()
        configuration.jobs = 1
        configuration.rescan = rescan
        return PhotoScanner(configuration: configuration, library: library)
    }

    @Test func filesOnePendingWorkPerSpineWithItsCropBesideTheLibrary() async throws {
        let (path, fixture, dir) = try Self.photo()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try LibraryStore(path: dir.appendingPathComponent("lib/library.sqlite").path)

        guard case .scanned(let scan) = await Self.scanner(library: store).scan(photoAt: path) else {
            Issue.record("the photo was not scanned"); return
        }
        #expect(scan.spines.count == fixture.spines.count)
        #expect(scan.filedWorkIDs.count == fixture.spines.count)
        #expect(try await store.pendingCount() == fixture.spines.count)
        // Each detected box lies over a drawn spine, in left-to-right order.
        for (spine, drawn) in zip(scan.spines, fixture.spines) {
            let centerX = (spine.boundingBox.x + spine.boundingBox.width / 2) * 800
            #expect(centerX > Double(drawn.x) && centerX < Double(drawn.x + drawn.width))
        }
        // The crop survives the photo being moved away.
        try FileManager.default.removeItem(atPath: path)
        let item = try #require(try await store.nextPending())
        #expect(item.work.title == Work.unreadTitle)
        #expect(item.work.reviewStatus == .needsReview)
        let crop = try #require(item.cropURL)
        let image = try ImageDecoder.decode(fileAt: crop.path)
        #expect(image.height > image.width, "a standing spine's crop is tall")
    }

    @Test func aFiledPhotoIsSkippedAndARescanKeepsWhatWasVerified() async throws {
        let (path, fixture, dir) = try Self.photo(seed: 11, spineCount: 5)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try LibraryStore(path: dir.appendingPathComponent("library.sqlite").path)

        guard case .scanned(let first) = await Self.scanner(library: store).scan(photoAt: path) else {
            Issue.record("the photo was not scanned"); return
        }
        #expect(first.filedWorkIDs.count == fixture.spines.count)
        guard case .skipped(_, let hash) = await Self.scanner(library: store).scan(photoAt: path) else {
            Issue.record("a filed photo must be skipped"); return
        }
        #expect(hash == first.contentHash)

        // The reviewer verifies one spine; a rescan replaces the other, still pending, Works only.
        let verifiedID = first.filedWorkIDs[2]
        try await store.review(ReviewDecision(workID: verifiedID, action: .edit(WorkEdit(title: "Moby-Dick", authors: ["Herman Melville"]))))
        guard case .scanned(let again) = await Self.scanner(library: store, rescan: true).scan(photoAt: path) else {
            Issue.record("--rescan must scan again"); return
        }
        #expect(again.replacedPending)
        #expect(again.filedWorkIDs.count == fixture.spines.count - 1)
        #expect(Set(again.filedWorkIDs).isDisjoint(with: first.filedWorkIDs))
        let kept = try #require(try await store.work(id: verifiedID))
        #expect(kept.title == "Moby-Dick")
        #expect(kept.reviewStatus == .userEdited)
        #expect(try await store.pendingCount() == fixture.spines.count - 1)
        #expect(try await store.photoStatus(contentHash: first.contentHash)?.workCount == fixture.spines.count)
    }

    @Test("With the PP-OCR reader the text cue runs on the reader's detector session, not on a second copy of the model")
    func thePPOCRReaderAndTheTextCueShareOneDetectorSession() throws {
        let scanner = try PhotoScanner.open(configuration: ScanConfiguration(), reader: .ppocr(modelsDirectory: nil),
                                            catalogPath: nil)
        let reader = try #require(scanner.reader as? PPOCRReader, "the PP-OCR models are fetched by scripts/setup.sh")
        let cue = try #require(scanner.textCue)
        #expect(cue.detector.session === reader.detector.session)
        #expect(reader.detector.session.memory == .perRun)
        // The cue keeps its own input size on the shared session.
        #expect(cue.detector.options.maxSide == scanner.detector.parameters.textCueLongSide ?? TextCue.defaultLongSide)
        #expect(reader.detector.options == PPOCROptions().detector)
    }

    @Test("Without the PP-OCR reader the text cue loads the detector model into a session that keeps its memory between runs")
    func withoutTheReaderTheTextCueKeepsItsArena() throws {
        let scanner = try PhotoScanner.open(configuration: ScanConfiguration(), reader: .none, catalogPath: nil)
        let cue = try #require(scanner.textCue, "the PP-OCR models are fetched by scripts/setup.sh")
        #expect(scanner.reader == nil)
        #expect(cue.detector.session.memory == .reused)
        #expect(cue.detector.options.maxSide == scanner.detector.parameters.textCueLongSide ?? TextCue.defaultLongSide)
    }

    @Test func aDryRunFilesNothingAndCropsNothing() async throws {
        let (path, fixture, dir) = try Self.photo(seed: 3)
        defer { try? FileManager.default.removeItem(at: dir) }
        var configuration = ScanConfiguration()
        configuration.fileResults = false
        guard case .scanned(let scan) = await PhotoScanner(configuration: configuration).scan(photoAt: path) else {
            Issue.record("the photo was not scanned"); return
        }
        #expect(scan.spines.count == fixture.spines.count)
        #expect(scan.filedWorkIDs.isEmpty)
        #expect(scan.spines.allSatisfy { $0.cropJPEG == nil })
    }

    @Test func aCorruptPhotoFailsWithAReasonAndFilesNothing() async throws {
        let dir = try ShelfscanProcess.temporaryDirectory("scanner")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.jpg").path
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]).write(to: URL(fileURLWithPath: path))
        let store = try LibraryStore.inMemory()
        defer { try? FileManager.default.removeItem(at: store.cropsDirectory) }
        guard case .failed(_, let reason) = await Self.scanner(library: store).scan(photoAt: path) else {
            Issue.record("a corrupt photo must fail"); return
        }
        #expect(!reason.isEmpty)
        #expect(try await store.stats().photos == 0)
    }
}
