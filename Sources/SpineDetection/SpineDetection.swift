// SpineDetection: shelf rows and spine quads. See Package.swift.
