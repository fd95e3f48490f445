extension Signal {
    /// Gives this node the name graphs and reports show for it (RAC
    /// `setNameWithFormat:`), and returns it unchanged.
    @discardableResult
    public func named(_ name: String) -> Self {
        hook?.nodeNamed(id, name: name)
        return self
    }
}
