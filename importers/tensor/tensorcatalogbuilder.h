#pragma once

#include "importers/core/importcontrol.h"
#include "models/core/runmanifest.h"
#include "models/graph/dumpindex.h"
#include "models/tensor/tensorcatalog.h"

#include <QString>

namespace runlens::tensor {

/// Builds the TensorCatalog of an opened folder from the tensor files of its manifest, reading only
/// headers: `.npy` (torch-style `step_N/{module}.{kind}.npy` dumps and MindSpore offline dumps
/// `{net}/{graph}/{iteration}/{op_type}.{op_name}...{input|output}.{slot}...npy`), the members of `.npz`
/// archives and the entries of `.safetensors` files. The same tensor at several steps becomes one series;
/// the step comes from the folders (`step_N`, `iteration_N`, MindSpore iteration folders) or from the file
/// name of a checkpoint (`ckpt-300.safetensors`). Runs on any thread; a bad file becomes a diagnostic.
class TensorCatalogBuilder
{
public:
    static TensorCatalog build(const RunManifest& manifest, const ImportControl& control = {});

    struct WithDumps
    {
        TensorCatalog catalog;
        graph::DumpIndex dumps; ///< what DumpIndexer::index() gives, from the same reading of each header
    };
    /// The catalog and the dump index of the `.npy` files together, each header read once.
    static WithDumps buildWithDumps(const RunManifest& manifest, const ImportControl& control = {});
};

} // namespace runlens::tensor
