#pragma once

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <cstdint>
#include <optional>

namespace runlens::models::accuracy {

/// What the dumper collected (`task` in dump.json; md5 is a summary mode of the statistics task, told
/// apart by the `md5` members of the tensor records).
enum class DumpTask { Unknown, Statistics, Tensor, Md5, Structure };
/// `level` in dump.json: modules only, APIs only, both, kernels, the single-point save API.
enum class DumpLevel { Unknown, L0, L1, Mix, L2, Debug };
enum class DumpFramework { Unknown, PyTorch, MindSpore, MindTorch };

/// The first dot-field of an entry name. Module (PyTorch) and Cell (MindSpore) are modules; the rest
/// are API families.
enum class EntryKind {
    Other,
    Module,
    Cell,
    Functional,
    Tensor,
    Torch,
    Npu,
    Vf,
    Aten,
    Distributed,
    MindSpeed,
    Mint,
    MintFunctional,
    MintDistributed,
    Primitive,
    Jit,
};

enum class Direction { Unknown, Forward, Backward, ParametersGrad };

/// Where a row comes from in its entry's record.
enum class ArgRole {
    Input, ///< `input_args` of a forward call, or `input` of a backward one (gradients flowing in)
    Kwarg, ///< `input_kwargs`, by name
    Parameter, ///< `parameters` of a module's forward call
    Output, ///< `output`
    ParameterGrad, ///< a `parameters_grad` entry's gradients, by parameter name
};

enum class ValueKind {
    Tensor, ///< a record with a dtype: statistics, md5, data file
    Scalar, ///< int, float, bool, str, slice, ellipsis, torch.Size, dtype, device ... kept in `value`
    Null, ///< None or an object msprobe could not describe
};

/// An entry name taken apart from the right, as msprobe builds it: `{Prefix}.{api}.{n}.{forward|backward}`
/// for APIs, `{Module|Cell}.{path}.{Class}.{forward|backward}.{n}` for modules and
/// `{Module|Cell}.{path}.{Class}.parameters_grad[.{n}]` for gradients of module parameters. Module paths
/// contain dots and digits (`layers.0.attention`), so only the right end is trusted.
struct EntryName
{
    QString full;
    QString prefix; ///< "Functional", "Module", "Mint" ... as written
    EntryKind kind = EntryKind::Other;
    QString api; ///< APIs: "conv2d", "__add__", "norm.RmsNorm" (Primitive names have two parts)
    QString modulePath; ///< modules: "layer1.0.conv1"; may be empty for the root module
    QString className; ///< modules: "Conv2d"
    qint64 counter = -1; ///< call counter; -1 when absent (old parameters_grad names)
    Direction direction = Direction::Unknown;
    bool valid = false; ///< false when the name does not follow either pattern

    bool isModule() const { return kind == EntryKind::Module || kind == EntryKind::Cell; }
    /// `Module.layer1.0.conv1.Conv2d`, `Functional.conv2d`: what the counter counts.
    QString scope() const;
};

/// One frame of a stack.json string `File {path}, line {n}, in {func}, \n {code}`.
struct StackFrame
{
    QString file;
    int line = -1;
    QString function;
    QString code;
    QString text; ///< the string as written, when it does not follow the pattern
};
using Stack = QList<StackFrame>;

/// One tensor or value of an entry, flattened as msprobe's compare flattens records into rows.
struct DumpRow
{
    /// msprobe's row name: `{entry}.input.0`, `{entry}.input.1.0`, `{entry}.input.labels` (kwargs),
    /// `{entry}.parameters.weight`, `{entry}.output.0`, `{entry}.weight` (parameters_grad); a tensor with a
    /// data file is named after the file without its extension (`{entry}.kwargs.labels`), as msprobe does.
    QString name;
    ArgRole role = ArgRole::Input;
    QString path; ///< indices and keys below the role joined by dots: "0", "1.0", "labels"
    ValueKind kind = ValueKind::Null;
    QString type; ///< `type` as written: "torch.Tensor", "mindspore.Tensor", "int", "slice" ...
    QString dtype; ///< "torch.float32", "BFloat16" ...
    QList<qint64> shape; ///< empty for 0-d tensors and values
    bool hasShape = false;
    /// Statistics; absent when not collected or null. NaN/±Inf as written. Booleans (bool tensors) are 1/0.
    std::optional<double> max, min, mean, norm;
    bool booleanStats = false; ///< Max/Min were JSON booleans (any/all of a bool tensor)
    QString md5; ///< CRC-32 as 8 hex digits (msprobe calls it md5); empty when absent
    QString dataName; ///< file name inside dump_tensor_data/; empty when absent
    std::optional<bool> requiresGrad; ///< PyTorch only
    QVariant value; ///< non-tensor values: qint64, double, bool, QString, QVariantList for slices and sizes
};

struct DumpEntry
{
    EntryName name;
    QList<DumpRow> rows; ///< inputs, parameters, outputs, parameter gradients; in record order within each
    std::optional<bool> isRecompute;
};

/// A parent in construct.json: "" for a top-level node; `microStep` from Megatron's `[parent, step]` form.
struct ConstructParent
{
    QString parent;
    std::optional<qint64> microStep;
};

/// One msprobe dump folder (`step*/rank*/`): dump.json's entries in file order with their rows, the
/// module tree of construct.json, the stacks of stack.json and the files of dump_tensor_data/. A value
/// type, immutable once the reader publishes it (shared as `shared_ptr<const MsprobeDump>`).
struct MsprobeDump
{
    QString folder; ///< absolute path of the folder holding dump.json
    QString taskText, levelText, frameworkText; ///< as written
    DumpTask task = DumpTask::Unknown;
    DumpLevel level = DumpLevel::Unknown;
    DumpFramework framework = DumpFramework::Unknown;
    QString dumpDataDir; ///< `dump_data_dir` at dump time; informational, files are looked up in `folder`

    QList<DumpEntry> entries; ///< in file order
    QHash<QString, int> entryIndex; ///< full name -> index into entries

    QHash<QString, ConstructParent> parents; ///< construct.json child -> parent
    QStringList constructOrder; ///< construct.json children in file order
    std::optional<qint64> megatronMicroSteps; ///< `megatron_micro_step_number`

    QList<Stack> stacks; ///< distinct stacks
    QHash<QString, int> stackIndex; ///< entry name -> index into stacks (both stack.json forms end here)

    /// dump_tensor_data/ file name -> absolute path, for every regular file found there.
    QHash<QString, QString> tensorFiles;

    const DumpEntry* entry(const QString& name) const;
    /// The parent of `name` in construct.json: empty when top-level or unknown.
    QString parentOf(const QString& name) const;
    bool hasParentRecord(const QString& name) const { return parents.contains(name); }
    /// The stack of `name`; for a backward entry without one, the stack of its forward twin (modules: the
    /// forward call 0 of the same module, as msprobe's viewer does). Null when there is none.
    const Stack* stackOf(const QString& name) const;
    /// Absolute path of a row's data file, empty when the row has none or the file is missing.
    QString tensorFilePath(const DumpRow& row) const;

    qint64 rowCount() const;
    int countDirection(Direction direction) const;
};

/// Takes an entry name apart (see EntryName).
EntryName parseEntryName(const QString& name);
/// Splits one stack.json frame string.
StackFrame parseStackFrame(const QString& text);

DumpTask dumpTaskFromText(const QString& text);
DumpLevel dumpLevelFromText(const QString& text);
DumpFramework dumpFrameworkFromText(const QString& text);
EntryKind entryKindFromPrefix(const QString& prefix);
/// Stable ids: "statistics", "tensor", "md5", "L0", "mix", "pytorch", "module", "forward", "input" ...
QString dumpTaskId(DumpTask task);
QString dumpLevelId(DumpLevel level);
QString dumpFrameworkId(DumpFramework framework);
QString entryKindId(EntryKind kind);
QString directionId(Direction direction);
QString argRoleId(ArgRole role);

} // namespace runlens::models::accuracy
