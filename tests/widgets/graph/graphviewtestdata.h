#pragma once

#include "models/graph/scopetree.h"
#include "tests/models/graph/graphtestdata.h"

#include <memory>
#include <string>

namespace runlens::test {

/// A small transformer-like graph: input -> embed -> three blocks (attention + mlp groups, weights folded)
/// with residual adds -> head -> output. Namespaces are three levels deep.
inline std::shared_ptr<const models::graph::Graph> smallModel(const std::string& path = {})
{
    GraphBuilder b;
    b.node("input", "Input", {}, models::graph::NodeKind::Input);
    b.node("model/embed/weight", "Parameter", {}, models::graph::NodeKind::Parameter);
    b.node("model/embed/gather", "Gather", { { "model/embed/weight" }, { "input", { 1, 16 } } });
    std::string last = "model/embed/gather";
    for (const std::string block : { "enc", "mid", "dec" }) {
        const std::string p = "model/" + block;
        b.node(p + "/attn/q_w", "Parameter", {}, models::graph::NodeKind::Parameter);
        b.node(p + "/attn/q", "MatMul", { { last, { 1, 16, 64 } }, { p + "/attn/q_w" } });
        b.node(p + "/attn/k", "MatMul", { { last, { 1, 16, 64 } } });
        b.node(p + "/attn/v", "MatMul", { { last, { 1, 16, 64 } } });
        b.node(p + "/attn/score", "MatMul", { { p + "/attn/q" }, { p + "/attn/k" } });
        b.node(p + "/attn/softmax", "Softmax", { { p + "/attn/score" } });
        b.node(p + "/attn/out", "MatMul", { { p + "/attn/softmax" }, { p + "/attn/v" } });
        b.node(p + "/add1", "Add", { { last, { 1, 16, 64 } }, { p + "/attn/out", { 1, 16, 64 } } });
        b.node(p + "/mlp/fc1", "MatMul", { { p + "/add1", { 1, 16, 64 } } });
        b.node(p + "/mlp/act", "Gelu", { { p + "/mlp/fc1", { 1, 16, 256 } } });
        b.node(p + "/mlp/fc2", "MatMul", { { p + "/mlp/act", { 1, 16, 256 } } });
        b.node(p + "/add2", "Add", { { p + "/add1", { 1, 16, 64 } }, { p + "/mlp/fc2", { 1, 16, 64 } } });
        last = p + "/add2";
    }
    b.node("model/head", "MatMul", { { last, { 1, 16, 64 } } });
    b.node("output", "Output", { { "model/head", { 1, 16, 1000 } } }, models::graph::NodeKind::Output);
    auto graph = std::const_pointer_cast<models::graph::Graph>(b.finish());
    graph->path = QString::fromStdString(path);
    graph->name = "small-model";
    graph->nodes[std::size_t(graph->find("model/mid/mlp/act"))].attributes.push_back({ "approximate", "tanh" });
    graph->nodes[std::size_t(graph->find("model/mid/mlp/act"))].sources.push_back({ "train.py", 42, 0, "x = gelu(x)" });
    return graph;
}

} // namespace runlens::test
