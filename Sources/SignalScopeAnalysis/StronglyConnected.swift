/// Strongly connected sets (Tarjan's algorithm), iteratively: a chain of thousands of
/// objects must not overflow the stack.
enum StronglyConnected {
    static func sets<Vertex: Hashable>(of vertices: [Vertex], edges: (Vertex) -> [Vertex]) -> [[Vertex]] {
        var index = 0
        var indices: [Vertex: Int] = [:]
        var lowLinks: [Vertex: Int] = [:]
        var stack: [Vertex] = []
        var onStack: Set<Vertex> = []
        var result: [[Vertex]] = []
        for root in vertices where indices[root] == nil {
            // Each frame: a vertex and its successors still to visit.
            var frames: [(vertex: Vertex, successors: [Vertex], next: Int)] = []
            func open(_ vertex: Vertex) {
                indices[vertex] = index
                lowLinks[vertex] = index
                index += 1
                stack.append(vertex)
                onStack.insert(vertex)
                frames.append((vertex, edges(vertex), 0))
            }
            open(root)
            while !frames.isEmpty {
                let top = frames.count - 1
                let vertex = frames[top].vertex
                if frames[top].next < frames[top].successors.count {
                    let successor = frames[top].successors[frames[top].next]
                    frames[top].next += 1
                    if indices[successor] == nil {
                        open(successor)
                    } else if onStack.contains(successor) {
                        lowLinks[vertex] = min(lowLinks[vertex]!, indices[successor]!)
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last?.vertex { lowLinks[parent] = min(lowLinks[parent]!, lowLinks[vertex]!) }
                guard lowLinks[vertex] == indices[vertex] else { continue }
                var members: [Vertex] = []
                while let member = stack.popLast() {
                    onStack.remove(member)
                    members.append(member)
                    if member == vertex { break }
                }
                result.append(members)
            }
        }
        return result
    }
}
