#pragma once

#include "importers/core/importcontrol.h"
#include "models/core/runmanifest.h"
#include "models/graph/dumpindex.h"
#include "models/tensor/tensorcatalog.h"

#include <QString>

#include <memory>

namespace runlens::importers::tensor {

/// Builds the TensorCatalog of an opened folder from the tensor files of its manifest, reading only
/// headers: `.npy` (torch-style `step_N/{module}.{kind}.npy` dumps and MindSpore offline dumps
/// `{net}/{graph}/{iteration}/{op_type}.{op_name}...{input|output}.{slot}...npy`), the members of `.npz`
/// archives and the entries of `.safetensors` files. The same tensor at several steps becomes one series;
/// the step comes from the folders (`step_N`, `iteration_N`, MindSpore iteration folders) or from the file
/// name of a checkpoint (`ckpt-300.safetensors`). msprobe tensor dumps (`step*/rank*/dump_tensor_data/` with
/// `.npy` or torch.save `.pt` files) are series named by their row, the step and rank from the folders; the
/// files are entries of the dump index too. Runs on any thread; a bad file becomes a diagnostic.
class TensorCatalogBuilder
{
public:
    static models::tensor::TensorCatalog build(const models::RunManifest& manifest, const ImportControl& control = {});

    struct WithDumps
    {
        models::tensor::TensorCatalog catalog;
        models::graph::DumpIndex dumps; ///< what DumpIndexer::index() gives, from the same reading of each header
    };
    /// The catalog and the dump index of the `.npy` files together, each header read once.
    static WithDumps buildWithDumps(const models::RunManifest& manifest, const ImportControl& control = {});
};

/// The values of one tensor file of a dump (an msprobe `.npy`, or a torch.save `.pt` of one tensor), read
/// when opened: for views that know the file from elsewhere (dump.json's data_name) and not from a catalog.
std::shared_ptr<const models::tensor::TensorSource> dumpTensorFileSource(const QString& path);

} // namespace runlens::importers::tensor
