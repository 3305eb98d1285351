#pragma once

#include "models/graph/graph.h"

#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace runlens::test {

/// Builds small graphs by hand: each node names its producers by id; shapes are optional.
class GraphBuilder
{
public:
    struct In
    {
        std::string producer;
        std::vector<std::int64_t> dims = {};
        bool control = false;
    };

    GraphBuilder& node(const std::string& fullName, const std::string& opType, std::vector<In> inputs = {},
                       models::graph::NodeKind kind = models::graph::NodeKind::Op)
    {
        models::graph::Node node;
        node.id = fullName;
        const auto slash = fullName.rfind('/');
        node.name = slash == std::string::npos ? fullName : fullName.substr(slash + 1);
        node.scope = slash == std::string::npos ? std::string() : fullName.substr(0, slash);
        node.opType = opType;
        node.kind = kind;
        node.outputs.push_back({});
        for (const In& in : inputs) {
            models::graph::Port port;
            port.name = in.producer;
            port.control = in.control;
            if (!in.dims.empty()) {
                port.type.dtype = "float32";
                port.type.dims = in.dims;
                port.type.rankKnown = true;
            }
            node.inputs.push_back(std::move(port));
        }
        m_graph->nodes.push_back(std::move(node));
        return *this;
    }

    std::shared_ptr<const models::graph::Graph> finish()
    {
        // The last node of a name produces it, as a linear search from the front would find.
        std::unordered_map<std::string, int> producers;
        for (std::size_t i = 0; i < m_graph->nodes.size(); ++i)
            producers[m_graph->nodes[i].id] = int(i);
        for (models::graph::Node& node : m_graph->nodes) {
            for (models::graph::Port& port : node.inputs) {
                if (const auto found = producers.find(port.name); found != producers.end())
                    port.producer = found->second;
            }
        }
        m_graph->finalize();
        return m_graph;
    }

private:
    std::shared_ptr<models::graph::Graph> m_graph = std::make_shared<models::graph::Graph>();
};

} // namespace runlens::test
