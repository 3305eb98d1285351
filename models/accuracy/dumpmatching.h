#pragma once

#include "models/accuracy/accuracymetrics.h"
#include "models/accuracy/msprobedump.h"
#include "models/tensor/tensorcatalog.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace runlens::models::accuracy {

/// What a dump side was read from.
enum class SideKind {
    Msprobe, ///< an msprobe dump folder (dump.json)
    TensorDump, ///< `step_N/{module}.{kind}.npy` or MindSpore dump files (tensor catalog series)
    Checkpoint, ///< a `.pt`, `.npz` or `.safetensors` file: one row per parameter
};

/// What a row is to its op: forward inputs (and backward gradients flowing in), outputs, the op's own
/// parameters, gradients of parameters.
enum class RowKind { Input, Output, Parameter, Gradient };
/// "input", "output", "parameter", "gradient".
QString rowKindId(RowKind kind);

/// One tensor (or value) of a side, in execution order.
struct SideRow
{
    QString name; ///< as its side spells it: msprobe's row name, the series name, the parameter name
    QString op; ///< the entry or module it belongs to (a checkpoint row is its own op)
    int opIndex = -1; ///< index of `op` in DumpSide::ops
    RowKind kind = RowKind::Input;
    int index = -1; ///< argument or output slot; -1 when none
    QString dtype; ///< as written ("torch.float32", "Float32", "float16")
    std::vector<std::int64_t> shape;
    bool hasShape = false;
    bool isTensor = true; ///< false for scalars and None recorded by msprobe
    TensorStats stats; ///< msprobe statistics; empty for other sides
    QString md5;
    /// Where the values are; null when the side has no data for the row (statistics dumps, unsaved tensors).
    std::shared_ptr<const tensor::TensorSource> source;
    QString sourceText; ///< the file (and member) the values are read from, for messages
    /// The dump the row comes from when a side spans several (`step0/rank1`, relative to the side's folder);
    /// empty when the side is one dump. Rows pair only within the same group.
    QString group;
};

/// One side of a comparison: its rows in execution order, grouped by op.
struct DumpSide
{
    QString path;
    SideKind kind = SideKind::Msprobe;
    DumpFramework framework = DumpFramework::Unknown;
    DumpTask task = DumpTask::Unknown; ///< Msprobe: as dumped; other sides: Tensor
    QStringList ops; ///< in execution order
    QList<SideRow> rows; ///< in execution order; rows of one op together (one group after another)
    /// The dumps of a side that spans several (msprobe's `step*/rank*` folders below one root), in natural
    /// order; empty when the side is one dump.
    QStringList groups;
    /// The msprobe dump the side was read from (module tree, stacks), for views that show them; null otherwise.
    std::shared_ptr<const MsprobeDump> msprobe;
};

/// The row's name with its group in front (`step0/rank1/{name}`), or the name when it has none: unique across
/// the dumps of a side.
QString qualifiedName(const SideRow& row);

/// Flattens an msprobe dump into rows (the rows the reader made, in entry order; msprobe's naming).
DumpSide sideFromMsprobe(std::shared_ptr<const MsprobeDump> dump);
/// Rows from tensor catalog series (dump folders): one row per series and step (named `step_N/{series}`
/// when the side has several steps), the op being the series' module or MindSpore op. These dumps carry no
/// record of execution order, so ops are taken in natural name order (`layers.2` before `layers.10`), and
/// inputs, parameters, outputs, gradients within an op.
DumpSide sideFromCatalog(const QString& path, const tensor::TensorCatalog& catalog);
/// Rows from the tensors of one checkpoint file, in file order: each named by its key, its op the module
/// the key names (the key without its last field), kind Parameter (Gradient when the key says grad).
DumpSide sideFromCheckpoint(const QString& path, const QList<tensor::TensorInfo>& tensors);
/// Natural order of names: digit runs compare as numbers ("layers.2" < "layers.10").
bool naturalLess(const QString& a, const QString& b);

/// Which argument slots of a mapped API correspond (msprobe's api_mapping entries: `ms_args`/`pt_args`,
/// `ms_outputs`/`pt_outputs`, `ms_parameters`/`pt_parameters`, `ms_parameters_grad`/`pt_parameters_grad`).
/// A role whose lists are given pairs only the listed slots, target slot -> bench slot; the other slots of
/// that role never match. A role without lists keeps its slots.
struct ApiArguments
{
    std::optional<QHash<QString, QString>> inputs, outputs, parameters, parameterGrads;
};

/// How names of the target side are spelled on the bench side, for renamed modules and for APIs that are
/// named differently by PyTorch and MindSpore. Applied to the target's names before matching.
struct NameMapping
{
    QHash<QString, QString> rows; ///< whole row or entry names, target -> bench
    QHash<QString, QString> apis; ///< API scopes "Prefix.api", target -> bench ("Mint.cos" -> "Torch.cos")
    QList<QPair<QString, QString>> modules; ///< dotted module path pieces, target -> bench
    QHash<QString, QString> classes; ///< module class names, target -> bench ("Dense" -> "Linear")
    QHash<QString, ApiArguments> apiArguments; ///< by the target's API scope, as in `apis`

    bool isEmpty() const;
    /// Adds `other`'s entries; `other` wins where both name the same key.
    void merge(const NameMapping& other);

    /// The built-in MindSpore -> PyTorch API table (Mint.* -> Torch.*, MintFunctional.* -> Functional.*,
    /// the named pairs of models/accuracy/apimapping.json, msprobe's built-in table); Cell becomes Module
    /// without a table.
    static const NameMapping& mindSporeToPyTorch();
    /// A mapping file: JSON `{"rows": {..}, "apis": {..}, "modules": {..}, "classes": {..}}`, or the same as
    /// YAML with one `key: value` per line under each section; top-level `name: name` pairs are rows (as in
    /// msprobe's data_mapping files). msprobe's api_mapping files, a YAML (or JSON) list of entries
    /// `{ms_api, pt_api, ms_args, pt_args, ms_outputs, pt_outputs, ...}` or one such entry, fill `apis` and
    /// `apiArguments`. Nullopt with `error` set when the text is none of these.
    static std::optional<NameMapping> parse(const QByteArray& text, QString* error);
};

/// How a pair was found.
enum class MatchRule {
    Exact, ///< the same name on both sides
    Mapped, ///< the same name once the target's is mapped (mapping file, built-in API table, Cell -> Module)
    Fuzzy, ///< the same op but for its call counter, aligned in call order
};
QString matchRuleId(MatchRule rule);

struct MatchedPair
{
    int bench = -1; ///< index into the bench side's rows
    int target = -1; ///< index into the target side's rows
    MatchRule rule = MatchRule::Exact;
};

/// Matched pairs in the target's execution order, and every row of either side that found no partner.
struct MatchResult
{
    QList<MatchedPair> pairs;
    QList<int> unmatchedBench;
    QList<int> unmatchedTarget;
};

/// Matches rows: whole row names of the mapping first; then ops by name (after the mapping and, across
/// frameworks, the built-in API table) when their calls look alike (every argument both record has the same
/// shape), as msprobe joins on name and shape; then the remaining calls of each op (its name without the call
/// counter) aligned in call order by the same test, so an extra call on one side stays unmatched instead of
/// shifting every later pair; within paired ops, rows by argument (`.input.0`, `.output.1`,
/// `.parameters.weight`, slots renamed by the mapping's argument lists) when they are alike: a None with a None,
/// a value with a value of its type, a tensor with a tensor of the same class of dtype (as msprobe's join on
/// shape text and its cross-framework dtype check). Forward and backward are never paired with each other.
/// Sides spanning several dumps (DumpSide::groups) pair each group only with the other side's group of the
/// same name.
MatchResult matchSides(const DumpSide& bench, const DumpSide& target, const NameMapping& mapping = {});

/// The target's op name spelled as on the bench side (see NameMapping); `crossFramework` adds the built-in
/// MindSpore -> PyTorch table.
QString mapOpName(const QString& op, const NameMapping& mapping, bool crossFramework);

} // namespace runlens::models::accuracy
