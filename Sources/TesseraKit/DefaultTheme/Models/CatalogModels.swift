import Foundation

/// The Swift models of the default theme's component catalog: the values that need logic
/// beyond a field's transformer (seed 004's view data). Each is found by its component code.
enum CatalogModels {
    static let all: [AnyComponentModel] = [
        AnyComponentModel(ActivityModel.self),
        AnyComponentModel(BannerModel.self),
        AnyComponentModel(CommentModel.self),
        AnyComponentModel(CourseProgressModel.self),
        AnyComponentModel(ImageModel.self),
        AnyComponentModel(LessonModel.self),
        AnyComponentModel(PaymentTransactionModel.self),
        AnyComponentModel(SegmentModel.self),
        AnyComponentModel(StatModel.self),
    ]
}
