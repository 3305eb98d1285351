#pragma once

#include <QtGlobal>

#include <cstddef>
#include <optional>
#include <string_view>

// Protobuf wire format, just enough to look at the first fields of a message, and the heuristics FileSniffer
// uses to tell binary protobuf graphs apart (ONNX, MindSpore anf_ir, TensorFlow GraphDef) from a file's head.

namespace runlens::importers::sniff {

struct WireField
{
    quint32 number = 0;
    int wireType = -1;
    quint64 varint = 0; ///< value of a varint field, length of a length-delimited one
    std::string_view bytes; ///< the part of a length-delimited payload present in the buffer
    bool complete = false; ///< the whole field is inside the buffer
};

std::optional<quint64> readVarint(std::string_view s, std::size_t& pos);

/// Reads the field at `pos`; returns false at the end of the buffer or on a wire type that cannot occur.
/// A length-delimited field may run past the buffer: its visible part is returned, `pos` goes to the end.
bool readField(std::string_view s, std::size_t& pos, WireField& field);

enum class ProtoGuess { None, Onnx, AnfIr, TfGraphDef, Ambiguous };

/// ONNX ModelProto {ir_version=1 varint, producer_name=2, producer_version=3, domain=4 strings,
/// model_version=5, doc_string=6, graph=7, opset_import=8 ...} versus MindSpore anf_ir ModelProto
/// {ir_version=1 varint, domain=2 string, model_version=3 varint, graph=4 message}.
ProtoGuess guessModelProto(std::string_view head);

/// A Paddle ProgramDesc: field 1 is a BlockDesc whose first fields are `idx` (1) = 0 and `parent_idx` (2) = -1,
/// as every program's block 0 is written. With `named` (a `.pdmodel` or `__model__`) a block 0 whose parent is
/// not written is accepted too.
bool looksLikePaddleProgram(std::string_view head, bool named);

/// A MindSpore MindIR ModelProto: `ir_version` (1) is a short version string ("0.1.1"), then the other
/// header strings (producer_name 2 ... doc_string 6) and the `graph` message (7). Without `named` (a
/// `.mindir` file) the producer must say "MindSpore" as well.
bool looksLikeMindIr(std::string_view head, bool named);

/// A bare graph: field 1 is a repeated node message. TF NodeDef starts with its printable `name` (1)
/// followed by `op` (2); a MindSpore NodeProto (anf_ir and debugger schemas) starts with `input` (1),
/// an InputProto message, or with `name` (2) then `op_type` (3) when it has no inputs.
ProtoGuess guessBareGraph(std::string_view head);

/// A TensorFlow MetaGraphDef (`.meta`): it opens with `meta_info_def` (1) whose first field is one of its
/// own (version string, stripped op list of named OpDefs, Any, tags, TF version strings), or with
/// `graph_def` (2) holding a bare TF GraphDef.
bool looksLikeMetaGraphDef(std::string_view head);

} // namespace runlens::importers::sniff
