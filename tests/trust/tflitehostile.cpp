#include "tests/trust/tflitehostile.h"

#include "importers/graph/schema/tflite_generated.h"

#include <flatbuffers/flatbuffers.h>

#include <QString>

#include <vector>

namespace runlens::test {

namespace {

namespace tfl = runlens_tflite;

QByteArray finished(flatbuffers::FlatBufferBuilder& builder, flatbuffers::Offset<tfl::Model> model)
{
    tfl::FinishModelBuffer(builder, model);
    return QByteArray(reinterpret_cast<const char*>(builder.GetBufferPointer()), qsizetype(builder.GetSize()));
}

/// One float tensor "t" and `ops` as the only subgraph's operators, with WHILE as opcode 0 and ADD as 1.
QByteArray model(flatbuffers::FlatBufferBuilder& builder,
                 const std::vector<flatbuffers::Offset<tfl::SubGraph>>& subgraphs,
                 const std::vector<flatbuffers::Offset<tfl::Buffer>>& buffers = {})
{
    std::vector<flatbuffers::Offset<tfl::OperatorCode>> codes {
        tfl::CreateOperatorCode(builder, 119, 0, 1, tfl::BuiltinOperator_WHILE), tfl::CreateOperatorCode(builder, 0)
    };
    std::vector<flatbuffers::Offset<tfl::Buffer>> all { tfl::CreateBuffer(builder) };
    all.insert(all.end(), buffers.begin(), buffers.end());
    return finished(builder, tfl::CreateModelDirect(builder, 3, &codes, &subgraphs, "hostile", &all));
}

flatbuffers::Offset<tfl::SubGraph> subgraph(flatbuffers::FlatBufferBuilder& builder,
                                            const std::vector<flatbuffers::Offset<tfl::Operator>>& ops, int tensors = 1,
                                            int buffer = 0)
{
    std::vector<flatbuffers::Offset<tfl::Tensor>> list;
    for (int i = 0; i < tensors; ++i) {
        const std::vector<int> shape { 1, 4 };
        list.push_back(tfl::CreateTensorDirect(builder, &shape, tfl::TensorType_FLOAT32, std::uint32_t(i ? buffer : 0),
                                               i ? "w" : "t"));
    }
    const std::vector<int> io { 0 };
    return tfl::CreateSubGraphDirect(builder, &list, &io, &io, &ops, "g");
}

flatbuffers::Offset<tfl::Operator> whileOp(flatbuffers::FlatBufferBuilder& builder, int cond, int body)
{
    const std::vector<int> io { 0 };
    const auto options = tfl::CreateWhileOptions(builder, cond, body).Union();
    return tfl::CreateOperatorDirect(builder, 0, &io, &io, tfl::BuiltinOptions_WhileOptions, options);
}

} // namespace

Mutations tfliteHostile(const QByteArray&, std::uint64_t)
{
    Mutations out;
    out.append({ QStringLiteral("one operator table listed 100000 times"), [] {
                    flatbuffers::FlatBufferBuilder builder;
                    const std::vector<int> io { 0 };
                    const auto op = tfl::CreateOperatorDirect(builder, 1, &io, &io);
                    const std::vector<flatbuffers::Offset<tfl::Operator>> ops(100000, op);
                    return model(builder, { subgraph(builder, ops) });
                } });
    out.append({ QStringLiteral("one subgraph listed 20000 times, each with 50 operators"), [] {
                    flatbuffers::FlatBufferBuilder builder;
                    const std::vector<int> io { 0 };
                    const auto op = tfl::CreateOperatorDirect(builder, 1, &io, &io);
                    const auto g = subgraph(builder, std::vector<flatbuffers::Offset<tfl::Operator>>(50, op));
                    return model(builder, std::vector<flatbuffers::Offset<tfl::SubGraph>>(20000, g));
                } });
    out.append({ QStringLiteral("an operator with 200000 inputs"), [] {
                    flatbuffers::FlatBufferBuilder builder;
                    const std::vector<int> inputs(200000, 0);
                    const std::vector<int> outputs { 0 };
                    const auto op = tfl::CreateOperatorDirect(builder, 1, &inputs, &outputs);
                    return model(builder, { subgraph(builder, { op }) });
                } });
    out.append({ QStringLiteral("subgraphs that are each other's WHILE bodies, and their own"), [] {
                    flatbuffers::FlatBufferBuilder builder;
                    const auto a = subgraph(builder, { whileOp(builder, 1, 0) });
                    const auto b = subgraph(builder, { whileOp(builder, 1, 1) });
                    const auto c = subgraph(builder, { whileOp(builder, -5, 1 << 30) });
                    return model(builder, { a, b, c });
                } });
    out.append({ QStringLiteral("a buffer whose offset and size lie past the end of the file"), [] {
                    flatbuffers::FlatBufferBuilder builder;
                    const std::vector<int> inputs { 0, 1 };
                    const std::vector<int> outputs { 0 };
                    const auto op = tfl::CreateOperatorDirect(builder, 1, &inputs, &outputs);
                    const auto far = tfl::CreateBuffer(builder, 0, 0xfffffffffffff000ull, 0x2000);
                    return model(builder, { subgraph(builder, { op }, 2, 1) }, { far });
                } });
    return out;
}

} // namespace runlens::test
