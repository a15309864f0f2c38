
// Relationships with an inverse: a child model refers back to its parent, weakly.
//
// A model property (or `[Model]`, lazy or not) declared with `inverse: "order"`
// hands each child it creates a weak reference to the model that read it, under
// that name. The parent's cache holds its children strongly; children never hold
// the parent strongly, so the pair is freed together.
