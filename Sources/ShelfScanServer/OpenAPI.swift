import Foundation

/// `GET /openapi.json`: OpenAPI 3.1 built from `RouteSpec.all`, the list the router is built from.
enum OpenAPIDocument {
    static func json(version: String) -> Data {
        var paths: [String: [String: Any]] = [:]
        for spec in RouteSpec.all {
            paths[spec.path, default: [:]][spec.method.rawValue.lowercased()] = operation(spec)
        }
        let document: [String: Any] = [
            "openapi": "3.1.0",
            "info": [
                "title": "ShelfScan",
                "version": version,
                "description": "Bookshelf photos in, pending-review Works out: BooksTrack's v3 (multipart + SSE) and v1 (raw body + WebSocket) scan APIs, and the review queue.",
            ],
            "paths": paths,
            "components": [
                "securitySchemes": ["bearer": ["type": "http", "scheme": "bearer"]],
                "schemas": [
                    "Problem": [
                        "type": "object",
                        "description": "RFC 7807 problem details.",
                        "required": ["type", "title", "status", "detail", "code", "retryable"],
                        "properties": [
                            "type": ["type": "string"], "title": ["type": "string"], "status": ["type": "integer"],
                            "detail": ["type": "string"], "code": ["type": "string"], "retryable": ["type": "boolean"],
                            "retryAfter": ["type": "integer"],
                        ],
                    ],
                    "Envelope": [
                        "type": "object",
                        "required": ["success", "data", "metadata"],
                        "properties": [
                            "success": ["type": "boolean"], "data": [:] as [String: Any],
                            "metadata": ["type": "object", "properties": ["timestamp": ["type": "string"], "requestId": ["type": "string"]]],
                        ],
                    ],
                ],
            ],
            "security": [["bearer": [String]()]],
        ]
        return (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }

    static func operation(_ spec: RouteSpec) -> [String: Any] {
        var parameters: [[String: Any]] = spec.pathParameters.map { name in
            ["name": name, "in": "path", "required": true, "schema": ["type": name == "workId" ? "integer" : "string"]]
        }
        parameters += spec.query.map { ["name": $0, "in": "query", "required": spec.webSocket && $0 == "jobId", "schema": ["type": "string"]] }
        if spec.path.hasSuffix("/stream") {
            parameters.append(["name": "Last-Event-ID", "in": "header", "required": false, "schema": ["type": "string"]])
        }
        var responses: [String: Any] = [
            String(spec.success): ["description": spec.webSocket ? "Switching to the WebSocket protocol" : "Success",
                                   "content": [spec.produces: ["schema": spec.produces == "application/json" ? ["$ref": "#/components/schemas/Envelope"] : ["type": "string"]]]],
        ]
        // Every review route reads or writes the library, which may be busy or out of reach for a moment.
        let libraryProblems = spec.tag == "review" ? [503] : []
        for status in Set(spec.problems + libraryProblems + [401, 500]) {
            responses[String(status)] = ["description": HTTPStatusText.phrase(status),
                                         "content": ["application/problem+json": ["schema": ["$ref": "#/components/schemas/Problem"]]]]
        }
        for status in ["429", "503"] {
            guard var waiting = responses[status] as? [String: Any] else { continue }
            waiting["headers"] = ["Retry-After": ["schema": ["type": "integer"]]]
            responses[status] = waiting
        }
        var operation: [String: Any] = [
            "operationId": spec.operationId, "summary": spec.summary, "tags": [spec.tag], "responses": responses,
        ]
        if !parameters.isEmpty { operation["parameters"] = parameters }
        switch spec.body {
        case .none: break
        case .multipart:
            operation["requestBody"] = ["required": true, "content": ["multipart/form-data": ["schema": [
                "type": "object", "properties": ["photos[]": ["type": "array", "items": ["type": "string", "format": "binary"]]]]]]]
        case .image:
            operation["requestBody"] = ["required": true, "content": ["image/jpeg": ["schema": ["type": "string", "format": "binary"]],
                                                                      "image/png": ["schema": ["type": "string", "format": "binary"]]]]
        case .json:
            operation["requestBody"] = ["required": false, "content": ["application/json": ["schema": ["type": "object"]]]]
        }
        return operation
    }
}

enum HTTPStatusText {
    static func phrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad request"
        case 401: "Missing or wrong token"
        case 404: "Not found"
        case 409: "Conflict (a stale revision, an existing job ID, nothing to undo, a rule of the library broken)"
        case 413: "Too large (bytes or pixels)"
        case 415: "Not a JPEG or PNG"
        case 422: "Fails validation"
        case 429: "Rate limited; see Retry-After"
        case 503: "The library is busy or its server out of reach; see Retry-After"
        default: "Server error"
        }
    }
}
