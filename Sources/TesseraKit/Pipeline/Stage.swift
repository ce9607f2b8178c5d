import Foundation

/// One named piece of work over a stage's product. A new output, a plugin or a new feature is one
/// more step over the product it needs, and `--timings` prints it by this name.
public struct Step<Product>: Sendable {
    public let name: String
    let run: @Sendable (inout Product, BuildContext) throws -> Void

    public init(_ name: String, _ run: @escaping @Sendable (inout Product, BuildContext) throws -> Void) {
        self.name = name
        self.run = run
    }
}

/// A stage of the pipeline: makes its product from the one before (a named step, so a stage
/// cannot run before what it needs exists), then runs its steps over that product.
public struct Stage<Input, Product>: Sendable {
    public let name: String
    let make: @Sendable (consuming Input, BuildContext) throws -> Product
    /// Steps over the product, in order, once it is made.
    public var steps: [Step<Product>]

    public init(_ name: String, steps: [Step<Product>] = [], make: @escaping @Sendable (consuming Input, BuildContext) throws -> Product) {
        self.name = name
        self.make = make
        self.steps = steps
    }

    /// Makes the product and runs the steps, each timed. A step that throws ends the stage: the
    /// error is the build's, and nothing later has a product to work on. The input is handed on,
    /// not copied: a stage that changes the pages changes the only array of them.
    func run(_ input: consuming Input, in context: BuildContext) throws -> Product {
        context.options.progress?.begin(step: name)
        let start = context.startStep()
        var product: Product
        do {
            product = try make(input, context)
        } catch {
            context.endStep(name, startedAt: start)
            throw error
        }
        context.endStep(name, startedAt: start)
        for step in steps {
            try context.timed(step.name) { try step.run(&product, context) }
        }
        return product
    }
}
