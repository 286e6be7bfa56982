import BookModel
import Foundation
import Testing
@testable import Library
@testable import LibraryCore
import LibraryTestSupport

@Suite struct BookFinderTests {
    @Test(arguments: Engine.available)
    func findsPendingAndVerifiedBooksWithWhereTheyStand(engine: Engine) async throws {
        // Given a verified Dune typed in, and two photos filed: Dune and The Dispossessed on the first, a second shelf on the other
        let store = try await engine.makeStore()
        let (ids, saved) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        let second = try await store.file(photo(String(repeating: "b", count: 64), [
            spine("Kindred", ["Octavia E. Butler"], row: 1, position: 6),
        ], path: "/photos/shelf-2.jpg"))

        // When a reader looks for Dune, then for "le gu", then for "butler"
        let dune = try await store.find("dune")
        let leGuin = try await store.find("le gu")
        let butler = try await store.find("BUTLER")

        // Then the verified and the pending Dune are both found; the typed-in one has no place
        #expect(Set(dune.map(\.work.id)) == [saved.id, ids[0]])
        let typed = try #require(dune.first { $0.work.id == saved.id })
        #expect(typed.place == nil)
        let filed = try #require(dune.first { $0.work.id == ids[0] })
        #expect(filed.work.reviewStatus == .needsReview)
        #expect(filed.place?.words == "photo 1, shelf 1, 1st from the left")
        #expect(filed.place?.photoPath == "/photos/shelf.jpg")
        // And the place carries the spine's outline, normalized, for drawing it
        #expect(filed.place?.corners == [[0, 0.1], [0.04, 0.1], [0.04, 0.9], [0, 0.9]])
        #expect(leGuin.map(\.work.id) == [ids[2]])
        #expect(leGuin.first?.place?.words == "photo 1, shelf 1, 3rd from the left")
        #expect(butler.map(\.work.id) == second)
        #expect(butler.first?.place?.words == "photo 2, shelf 2, 7th from the left")
        #expect(butler.first?.place?.photoPath == "/photos/shelf-2.jpg")
    }

    @Test(arguments: Engine.available)
    func everyWordMustStartAWordAndUnreadSpinesAreNeverFound(engine: Engine) async throws {
        let store = try await engine.makeStore()
        _ = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        #expect(try await store.find("dune asimov").isEmpty, "every word must match")
        #expect(try await store.find("une").isEmpty, "a word matches from its start only")
        #expect(try await store.find("unread spine").isEmpty, "the placeholder title of an unread spine is not a title")
        #expect(try await store.find("  ,; ").isEmpty)
        #expect(try await store.find("dune", limit: 1).count == 1)
    }

    @Test func aBoxWithoutPolygonIsOutlinedByItsCorners() {
        let place = ShelfPlace(photoNumber: 1, photoPath: nil, photoContentHash: "x", shelf: 1, fromLeft: 1, lying: true, polygon: [],
                               boundingBox: BoundingBox(x: 0.1, y: 0.2, width: 0.3, height: 0.4))
        #expect(place.corners.count == 4)
        #expect(place.corners[2][0] > 0.39 && place.corners[2][0] < 0.41 && place.corners[2][1] > 0.59 && place.corners[2][1] < 0.61)
        #expect(place.words == "photo 1, shelf 1, 1st from the left (lying flat)")
    }

    @Test(arguments: [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"),
                      (21, "21st"), (22, "22nd"), (101, "101st"), (111, "111th")])
    func ordinals(_ n: Int, _ text: String) {
        #expect(ShelfPlace.ordinal(n) == text)
    }
}
