/// The library's migrations on PostgreSQL: the GRDB ones (`Library/Schema.swift`) in plain SQL, with the same
/// names, tables and columns, plus the team features only a server has. Each is frozen once shipped: fix a
/// schema mistake with a new migration, never by editing an old one.
///
/// Identifiers are unquoted, so PostgreSQL folds them to lower case (`normalizedTitle` is stored as
/// `normalizedtitle`); SQL written either way reads the same column. JSON columns stay `text`, as in SQLite, so
/// a library copied between engines keeps byte-identical values.
enum PostgresSchema {
    static let migrations: [(name: String, statements: [String])] = [
        ("v1 works, editions, authors, entries", [
            """
            CREATE TABLE author (
                id bigserial PRIMARY KEY, name text NOT NULL, normalizedName text NOT NULL, nationality text,
                gender text NOT NULL DEFAULT 'Unknown', culturalRegion text, birthYear integer, deathYear integer,
                openLibraryID text, isbndbID text, googleBooksID text, goodreadsID text,
                bookCount integer NOT NULL DEFAULT 0, dateCreated timestamptz NOT NULL, lastModified timestamptz NOT NULL)
            """,
            "CREATE INDEX author_on_normalizedName ON author (normalizedName)",
            """
            CREATE TABLE work (
                id bigserial PRIMARY KEY, title text NOT NULL CHECK (length(title) > 0), normalizedTitle text NOT NULL,
                originalLanguage text, firstPublicationYear integer, subjectTags text NOT NULL DEFAULT '[]',
                description text, openLibraryID text, openLibraryWorkID text, isbndbID text, googleBooksVolumeID text,
                goodreadsID text, goodreadsWorkIDs text NOT NULL DEFAULT '[]', amazonASINs text NOT NULL DEFAULT '[]',
                librarythingIDs text NOT NULL DEFAULT '[]', googleBooksVolumeIDs text NOT NULL DEFAULT '[]',
                synthetic boolean NOT NULL DEFAULT false, primaryProvider text, contributors text NOT NULL DEFAULT '[]',
                reviewStatus text NOT NULL CHECK (reviewStatus IN ('verified', 'needsReview', 'userEdited')),
                originalImagePath text, boundingBoxX double precision, boundingBoxY double precision,
                boundingBoxWidth double precision, boundingBoxHeight double precision,
                dateCreated timestamptz NOT NULL, lastModified timestamptz NOT NULL, lastISBNDBSync timestamptz,
                isbndbQuality integer NOT NULL DEFAULT 0, revision integer NOT NULL DEFAULT 0)
            """,
            "CREATE INDEX work_on_reviewStatus_id ON work (reviewStatus, id)",
            """
            CREATE TABLE credit (
                workId bigint NOT NULL REFERENCES work (id) ON DELETE CASCADE,
                authorId bigint NOT NULL REFERENCES author (id) ON DELETE CASCADE,
                role text NOT NULL, position integer NOT NULL, PRIMARY KEY (workId, authorId, role))
            """,
            "CREATE INDEX credit_on_authorId ON credit (authorId)",
            """
            CREATE TABLE edition (
                id bigserial PRIMARY KEY, workId bigint REFERENCES work (id) ON DELETE CASCADE, isbn text,
                isbns text NOT NULL DEFAULT '[]', title text, publisher text, publicationDate text, pageCount integer,
                format text NOT NULL, coverImageURL text, editionTitle text, description text, language text,
                primaryProvider text, contributors text NOT NULL DEFAULT '[]', openLibraryID text,
                openLibraryEditionID text, isbndbID text, googleBooksVolumeID text, goodreadsID text,
                amazonASINs text NOT NULL DEFAULT '[]', googleBooksVolumeIDs text NOT NULL DEFAULT '[]',
                librarythingIDs text NOT NULL DEFAULT '[]', lastISBNDBSync timestamptz,
                isbndbQuality integer NOT NULL DEFAULT 0, dateCreated timestamptz NOT NULL, lastModified timestamptz NOT NULL)
            """,
            "CREATE INDEX edition_on_workId ON edition (workId)",
            """
            CREATE TABLE libraryEntry (
                id bigserial PRIMARY KEY, workId bigint NOT NULL UNIQUE REFERENCES work (id) ON DELETE CASCADE,
                editionId bigint REFERENCES edition (id) ON DELETE SET NULL, dateAdded timestamptz NOT NULL,
                readingStatus text NOT NULL, currentPage integer NOT NULL DEFAULT 0,
                readingProgress double precision NOT NULL DEFAULT 0,
                rating integer CHECK (rating IS NULL OR (rating >= 1 AND rating <= 5)), personalRating double precision,
                notes text, tags text NOT NULL DEFAULT '[]', dateStarted timestamptz, dateCompleted timestamptz,
                estimatedFinishDate timestamptz, lastModified timestamptz NOT NULL)
            """,
            """
            CREATE TABLE journal (
                id bigserial PRIMARY KEY, session text NOT NULL, kind text NOT NULL, workId bigint NOT NULL,
                summary text NOT NULL, decidedAt timestamptz NOT NULL, before text NOT NULL,
                afterRevisions text NOT NULL, undoneAt timestamptz)
            """,
        ]),
        ("v2 photos, spines and crops", [
            """
            CREATE TABLE photo (
                id bigserial PRIMARY KEY, contentHash text NOT NULL UNIQUE, originalImagePath text NOT NULL,
                imageWidth integer NOT NULL, imageHeight integer NOT NULL, filedAt timestamptz NOT NULL)
            """,
            """
            ALTER TABLE work
                ADD COLUMN photoId bigint REFERENCES photo (id) ON DELETE SET NULL, ADD COLUMN photoContentHash text,
                ADD COLUMN spineRow integer, ADD COLUMN spinePosition integer, ADD COLUMN spineLying boolean,
                ADD COLUMN polygon text, ADD COLUMN detectionConfidence double precision,
                ADD COLUMN readingConfidence double precision, ADD COLUMN rawText text, ADD COLUMN reader text,
                ADD COLUMN model text, ADD COLUMN promptVersion text, ADD COLUMN readError text,
                ADD COLUMN callNumber text, ADD COLUMN catalogScore double precision, ADD COLUMN cropFile text
            """,
            "CREATE INDEX work_on_photoId ON work (photoId)",
            "CREATE INDEX credit_on_workId_position ON credit (workId, position)",
            "CREATE INDEX journal_on_undoneAt_id ON journal (undoneAt, id)",
        ]),
        ("v3 review cursors", [
            "CREATE TABLE reviewCursor (session text PRIMARY KEY, workId bigint, updatedAt timestamptz NOT NULL)",
        ]),
        // A team's library: crops live in the database (every worker and reviewer on every machine sees them,
        // and they commit with the photo's transaction), and claims with an expiry share out photos and Works.
        ("v4 crops in the database, photo and review claims", [
            "CREATE TABLE cropImage (workId bigint PRIMARY KEY REFERENCES work (id) ON DELETE CASCADE, jpeg bytea NOT NULL)",
            "CREATE TABLE photoClaim (contentHash text PRIMARY KEY, worker text NOT NULL, expiresAt timestamptz NOT NULL)",
            """
            CREATE TABLE reviewClaim (
                workId bigint PRIMARY KEY REFERENCES work (id) ON DELETE CASCADE, reviewer text NOT NULL,
                expiresAt timestamptz NOT NULL)
            """,
        ]),
        // The SQLite store's v4, same name and column.
        ("v4 enrichment status", [
            "ALTER TABLE work ADD COLUMN enrichmentStatus text",
        ]),
        // A crop outlives its Work's row, as a crop file does beside SQLite: undoing a reject, merge, split or
        // join puts the Work back with its crop. Crops of Works that no longer exist are not copied by `dump`.
        ("v5 crops outlive their Work for undo", [
            "ALTER TABLE cropImage DROP CONSTRAINT IF EXISTS cropimage_workid_fkey",
        ]),
        // The SQLite store's v5, same column.
        ("v6 spine text direction", [
            "ALTER TABLE work ADD COLUMN spineTextRunsUp boolean",
        ]),
        // PostgreSQL only: the results of writes applied at most once (`transactionOnce`), by a key each write
        // makes, so a write run again after a connection lost with its COMMIT on the way finds itself applied.
        ("v7 writes applied once", [
            "CREATE TABLE appliedRequest (requestId text PRIMARY KEY, result text NOT NULL, appliedAt timestamptz NOT NULL)",
            "CREATE INDEX appliedRequest_on_appliedAt ON appliedRequest (appliedAt)",
        ]),
    ]
}
