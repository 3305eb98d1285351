#pragma once

#include "models/core/diagnostic.h"

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

class QIODevice;

namespace runlens::models::graph {
class Graph;
}

namespace runlens::importers::graph {

/// One parameter of a Paddle combined parameter file (`*.pdiparams`, the older `__params__`).
struct PaddleParam
{
    std::string name;
    int dataType = -1; ///< Paddle VarType.Type of the stored tensor
    std::vector<std::int64_t> dims; ///< as stored
    std::int64_t offset = 0; ///< byte offset of the first element in the file
    std::int64_t length = 0; ///< bytes of elements (little-endian, C order)
};

/// Where each parameter's values are in a combined parameter file, without reading them.
struct PaddleParamsIndex
{
    std::vector<PaddleParam> params; ///< in file order: those read before any damage
    QString problem; ///< empty when every name was found and the file ended after the last one
    std::int64_t stoppedAt = -1; ///< the byte where reading stopped on damage, -1 when it did not
};

/// Bytes per element of a Paddle VarType.Type, 0 for types that are not plain tensors of numbers.
int paddleTypeSize(int type);

/// Walks the combined parameter file on `device` (positioned anywhere; it is read from 0), as `save_combine`
/// writes it: one record per name of `names` (the program's persistable variables in name order), each a
/// LoDTensor: uint32 version 0, uint64 LoD level count, per level a uint64 byte count and that many bytes,
/// then the tensor: uint32 version 0, int32 size of a VarType.TensorDesc message, the message (data_type = 1,
/// dims = 2), and the elements. Only headers are read (a few dozen bytes per parameter); element bytes are
/// skipped by seeking. Every length is checked against what is left of the file, so damage stops the walk
/// with `problem` set and the parameters before it kept.
PaddleParamsIndex indexPaddleParams(QIODevice& device, const std::vector<std::string>& names);

/// Fills in where the values of `graph`'s Parameter nodes are: in the combined parameter file beside the model
/// at `modelPath` (`x.pdiparams` for `x.pdmodel` or `x.json`; `__params__` or `params` beside `__model__`),
/// else (fluid 1.x) in one file per variable named as the variable. `names` are the saved parameters in file
/// order. Diagnostics say what was located and what was wrong; `parameters` is how many the graph holds.
void locatePaddleParameters(models::graph::Graph& graph, const std::vector<std::string>& names,
                            const QString& modelPath, int parameters, models::Diagnostics& diagnostics);

} // namespace runlens::importers::graph
