import Foundation

/// The writing stage: the output files onto disk, only when the build found no error. The cache
/// layer decides how: a new folder swapped in, or the last build's folder updated in place.
enum WriteStage {
    static func write(_ rendered: consuming RenderedSite, context: BuildContext) throws -> WrittenSite {
        try context.diagnostics.throwIfErrors()
        let site = rendered
        guard context.options.writesOutput else { return WrittenSite(rendered: site, changedOutputs: []) }
        let writer = OutputWriter(options: context.options, configuration: site.configuration, theme: site.theme)
        let changed = try context.reuse.write(site.outputs + site.staticFiles, with: writer, site: site, context: context)
        return WrittenSite(rendered: site, changedOutputs: changed)
    }
}
