import GRDB

/// The library's migrations. Each is frozen once shipped: plain table and column names, no app types,
/// and a schema mistake is fixed by a new migration, never by editing an old one.
enum Schema {
    static let firstMigration = "v1 works, editions, authors, entries"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration(firstMigration) { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("normalizedName", .text).notNull().indexed()
                t.column("nationality", .text)
                t.column("gender", .text).notNull().defaults(to: "Unknown")
                t.column("culturalRegion", .text)
                t.column("birthYear", .integer)
                t.column("deathYear", .integer)
                t.column("openLibraryID", .text)
                t.column("isbndbID", .text)
                t.column("googleBooksID", .text)
                t.column("goodreadsID", .text)
                t.column("bookCount", .integer).notNull().defaults(to: 0)
                t.column("dateCreated", .datetime).notNull()
                t.column("lastModified", .datetime).notNull()
            }
            try db.create(table: "work") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull().check { length($0) > 0 }
                t.column("normalizedTitle", .text).notNull()
                t.column("originalLanguage", .text)
                t.column("firstPublicationYear", .integer)
                t.column("subjectTags", .jsonText).notNull().defaults(to: "[]")
                t.column("description", .text)
                t.column("openLibraryID", .text)
                t.column("openLibraryWorkID", .text)
                t.column("isbndbID", .text)
                t.column("googleBooksVolumeID", .text)
                t.column("goodreadsID", .text)
                t.column("goodreadsWorkIDs", .jsonText).notNull().defaults(to: "[]")
                t.column("amazonASINs", .jsonText).notNull().defaults(to: "[]")
                t.column("librarythingIDs", .jsonText).notNull().defaults(to: "[]")
                t.column("googleBooksVolumeIDs", .jsonText).notNull().defaults(to: "[]")
                t.column("synthetic", .boolean).notNull().defaults(to: false)
                t.column("primaryProvider", .text)
                t.column("contributors", .jsonText).notNull().defaults(to: "[]")
                t.column("reviewStatus", .text).notNull()
                    .check { ["verified", "needsReview", "userEdited"].contains($0) }
                t.column("originalImagePath", .text)
                t.column("boundingBoxX", .double)
                t.column("boundingBoxY", .double)
                t.column("boundingBoxWidth", .double)
                t.column("boundingBoxHeight", .double)
                t.column("dateCreated", .datetime).notNull()
                t.column("lastModified", .datetime).notNull()
                t.column("lastISBNDBSync", .datetime)
                t.column("isbndbQuality", .integer).notNull().defaults(to: 0)
                t.column("revision", .integer).notNull().defaults(to: 0)
            }
            // The review queue is pending works in filing order.
            try db.create(index: "work_on_reviewStatus_id", on: "work", columns: ["reviewStatus", "id"])
            try db.create(table: "credit") { t in
                t.belongsTo("work", onDelete: .cascade).notNull()
                t.belongsTo("author", onDelete: .cascade).notNull()
                t.column("role", .text).notNull()
                t.column("position", .integer).notNull()
                t.primaryKey(["workId", "authorId", "role"])
            }
            try db.create(table: "edition") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("work", onDelete: .cascade)
                t.column("isbn", .text)
                t.column("isbns", .jsonText).notNull().defaults(to: "[]")
                t.column("title", .text)
                t.column("publisher", .text)
                t.column("publicationDate", .text)
                t.column("pageCount", .integer)
                t.column("format", .text).notNull()
                t.column("coverImageURL", .text)
                t.column("editionTitle", .text)
                t.column("description", .text)
                t.column("language", .text)
                t.column("primaryProvider", .text)
                t.column("contributors", .jsonText).notNull().defaults(to: "[]")
                t.column("openLibraryID", .text)
                t.column("openLibraryEditionID", .text)
                t.column("isbndbID", .text)
                t.column("googleBooksVolumeID", .text)
                t.column("goodreadsID", .text)
                t.column("amazonASINs", .jsonText).notNull().defaults(to: "[]")
                t.column("googleBooksVolumeIDs", .jsonText).notNull().defaults(to: "[]")
                t.column("librarythingIDs", .jsonText).notNull().defaults(to: "[]")
                t.column("lastISBNDBSync", .datetime)
                t.column("isbndbQuality", .integer).notNull().defaults(to: 0)
                t.column("dateCreated", .datetime).notNull()
                t.column("lastModified", .datetime).notNull()
            }
            try db.create(table: "libraryEntry") { t in
                t.autoIncrementedPrimaryKey("id")
                // One entry per work (seed 002's invariant), kept by SQLite.
                t.belongsTo("work", onDelete: .cascade).notNull().unique()
                t.belongsTo("edition", onDelete: .setNull)
                t.column("dateAdded", .datetime).notNull()
                t.column("readingStatus", .text).notNull()
                t.column("currentPage", .integer).notNull().defaults(to: 0)
                t.column("readingProgress", .double).notNull().defaults(to: 0)
                t.column("rating", .integer).check { $0 == nil || ($0 >= 1 && $0 <= 5) }
                t.column("personalRating", .double)
                t.column("notes", .text)
                t.column("tags", .jsonText).notNull().defaults(to: "[]")
                t.column("dateStarted", .datetime)
                t.column("dateCompleted", .datetime)
                t.column("estimatedFinishDate", .datetime)
                t.column("lastModified", .datetime).notNull()
            }
            try db.create(table: "journal") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("session", .text).notNull()
                t.column("kind", .text).notNull()
                t.column("workId", .integer).notNull()
                t.column("summary", .text).notNull()
                t.column("decidedAt", .datetime).notNull()
                t.column("before", .jsonText).notNull()
                t.column("afterRevisions", .jsonText).notNull()
                t.column("undoneAt", .datetime)
            }
        }

        // Spines became first-class: the photo they came from, where they sat, what the reader said, and
        // the crop file, so review works after the original photo has moved.
        migrator.registerMigration("v2 photos, spines and crops") { db in
            try db.create(table: "photo") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("contentHash", .text).notNull().unique()
                t.column("originalImagePath", .text).notNull()
                t.column("imageWidth", .integer).notNull()
                t.column("imageHeight", .integer).notNull()
                t.column("filedAt", .datetime).notNull()
            }
            try db.alter(table: "work") { t in
                t.add(column: "photoId", .integer).references("photo", onDelete: .setNull)
                t.add(column: "photoContentHash", .text)
                t.add(column: "spineRow", .integer)
                t.add(column: "spinePosition", .integer)
                t.add(column: "spineLying", .boolean)
                t.add(column: "polygon", .jsonText)
                t.add(column: "detectionConfidence", .double)
                t.add(column: "readingConfidence", .double)
                t.add(column: "rawText", .text)
                t.add(column: "reader", .text)
                t.add(column: "model", .text)
                t.add(column: "promptVersion", .text)
                t.add(column: "readError", .text)
                t.add(column: "callNumber", .text)
                t.add(column: "catalogScore", .double)
                t.add(column: "cropFile", .text)
            }
            try db.create(index: "work_on_photoId", on: "work", columns: ["photoId"])
            try db.create(index: "credit_on_workId_position", on: "credit", columns: ["workId", "position"])
            try db.create(index: "journal_on_undoneAt_id", on: "journal", columns: ["undoneAt", "id"])
        }

        migrator.registerMigration("v3 review cursors") { db in
            try db.create(table: "reviewCursor") { t in
                t.primaryKey("session", .text)
                t.column("workId", .integer)
                t.column("updatedAt", .datetime).notNull()
            }
        }

        migrator.registerMigration("v4 enrichment status") { db in
            // JSON: {state, provider?, score?, failures?, requests?}; NULL when enrichment was not asked for.
            try db.alter(table: "work") { t in t.add(column: "enrichmentStatus", .text) }
        }

        migrator.registerMigration("v5 spine text direction") { db in
            // Which way the title runs up the standing spine, as the reader found; NULL when not known.
            try db.alter(table: "work") { t in t.add(column: "spineTextRunsUp", .boolean) }
        }
        return migrator
    }
}
