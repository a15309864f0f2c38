import JSONModelKit

// Reads the models of GeneratorPaths.swift through their typed members: builds.

func read(_ stamp: Stamp, _ manifest: Source.Manifest, _ leaf: Leaf, _ tree: Tree, _ event: Event) -> String {
    let kind: Leaf.Kind? = leaf.next?.kind ?? leaf.children.first?.kind
    let treeKind: Tree.Kind? = tree.kind
    return "\(stamp.at != nil) \(stamp.count + 1) \(manifest.name) \(String(describing: kind)) \(String(describing: treeKind)) \(event.title)"
}

func read(_ post: Post, _ article: Article, _ host: Host, _ settings: UserSettings, _ counter: FlexibleCounter) -> String {
    let a: Int? = settings.a
    let b: Int? = counter.b
    return "\(post.title) \(article.body) \(article.heading) \(host.name) \(settings.id) \(settings.theme) \(String(describing: a)) \(counter.total) \(counter.label) \(String(describing: b))"
}

func read(_ cart: Catalog.Cart, _ order: Shop.Order, _ page: Catalog.Page<Leaf>) -> String {
    let first: Leaf? = page.items.first
    return "\(cart.item?.sku ?? "") \(order.number + 1) \(first?.kind?.rawValue ?? "")"
}

#if canImport(Dispatch)
func read(_ job: Job) -> String { job.queue }
#endif
