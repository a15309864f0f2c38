// The JSON core is a module of its own, so that the compiler keeps it free of models. Through
// this one re-export, `import JSONModelKit` still brings every name of the core.
@_exported import JSONModelKitCore
