import Foundation

/// The Swift models of the default theme's component catalog.
enum CatalogModels {
    static let all: [AnyComponentModel] = [
        AnyComponentModel(CourseProgressModel.self),
    ]
}
