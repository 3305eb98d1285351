#include "importers/accuracy/dumpcompare.h"

#include "importers/accuracy/msprobedumpreader.h"
#include "importers/core/runscanner.h"
#include "importers/tensor/npyfile.h"
#include "importers/tensor/npzfile.h"
#include "importers/tensor/ptfile.h"
#include "importers/tensor/safetensorsfile.h"
#include "importers/tensor/tensorcatalogbuilder.h"
#include "models/accuracy/divergence.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace runlens::importers::accuracy {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::accuracy)
};

bool isCheckpointFile(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("pt") || suffix == QLatin1String("pth") || suffix == QLatin1String("bin")
        || suffix == QLatin1String("npz") || suffix == QLatin1String("safetensors");
}

/// dump.json files below `folder` (msprobe's `step*/rank*/` layout, also inside a run folder), in name order.
QStringList dumpJsonFilesBelow(const QString& folder)
{
    QStringList found;
    QDirIterator it(folder, { QStringLiteral("dump.json") }, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        found << it.next();
    std::sort(found.begin(), found.end(), models::accuracy::naturalLess);
    return found;
}

DumpSideResult readMsprobeSide(const QString& path, const ImportControl& control)
{
    DumpSideResult out;
    const MsprobeReadResult read = readMsprobeDump(path, control);
    if (read.status == models::ImportStatus::Failed || read.status == models::ImportStatus::Canceled || !read.dump) {
        out.error = read.diagnostics.isEmpty() ? Text::tr("%1: the msprobe dump could not be read.").arg(path)
                                               : read.diagnostics.front().message;
        return out;
    }
    for (const models::Diagnostic& d : read.diagnostics)
        out.warnings << d.message;
    models::accuracy::DumpSide side = models::accuracy::sideFromMsprobe(read.dump);
    for (models::accuracy::SideRow& row : side.rows)
        if (!row.sourceText.isEmpty())
            row.source = tensor::dumpTensorFileSource(row.sourceText);
    out.side = std::move(side);
    return out;
}

/// Where a dump sits below the folder a side was named by: `step0/rank1` (msprobe's layout; `graph/` or
/// `pynative/` in front for MindSpore's jit dumps).
QString groupLabel(const QString& root, const QString& dumpJson)
{
    return QDir(root).relativeFilePath(QFileInfo(dumpJson).absolutePath());
}

/// A side naming one dump folder, labelled as a group of a side that spans several: its `stepN/rankM`.
QString ownGroupLabel(const QString& folder)
{
    const QFileInfo info(folder);
    const QString name = info.fileName();
    const QString parent = QFileInfo(info.absolutePath()).fileName();
    return parent.startsWith(QLatin1String("step")) ? parent + QLatin1Char('/') + name : name;
}

/// Every msprobe dump below `root` as one side: rows of each dump in turn, each row labelled with its dump
/// (see SideRow::group). A dump that cannot be read is left out with a warning.
DumpSideResult readMsprobeSides(const QString& root, const QStringList& dumps, const ImportControl& control)
{
    DumpSideResult out;
    models::accuracy::DumpSide combined;
    combined.path = root;
    combined.kind = models::accuracy::SideKind::Msprobe;
    for (const QString& dump : dumps) {
        if (control.canceled())
            break;
        const QString label = groupLabel(root, dump);
        DumpSideResult read = readMsprobeSide(dump, control);
        if (!read.side) {
            out.warnings << Text::tr("%1: %2").arg(label, read.error);
            continue;
        }
        out.warnings << read.warnings;
        models::accuracy::DumpSide& side = *read.side;
        if (combined.groups.isEmpty()) {
            // The first dump's tree and stacks stand for the side in views that show one dump.
            combined.framework = side.framework;
            combined.task = side.task;
            combined.msprobe = side.msprobe;
        }
        combined.groups << label;
        const int opOffset = int(combined.ops.size());
        combined.ops << side.ops;
        for (models::accuracy::SideRow& row : side.rows) {
            row.group = label;
            row.opIndex += opOffset;
            combined.rows << std::move(row);
        }
    }
    if (combined.groups.isEmpty()) {
        out.error = out.warnings.isEmpty() ? Text::tr("%1: the msprobe dumps could not be read.").arg(root)
                                           : out.warnings.front();
        return out;
    }
    out.side = std::move(combined);
    return out;
}

QString shapeOrNothing(const std::vector<std::int64_t>& shape)
{
    return models::tensor::shapeText(shape);
}

/// The element-wise part of one row in tensor mode: what the row gets once its pair is compared.
struct PairOutcome
{
    models::accuracy::Verdict verdict = models::accuracy::Verdict::None;
    std::optional<QString> note; ///< replaces the row's note when set
    std::optional<models::accuracy::TensorMetrics> metrics;
    bool message = false; ///< the note also goes to the result's messages (a file could not be read)
    bool cancelled = false;
};

PairOutcome comparePairData(const models::accuracy::SideRow& b, const models::accuracy::SideRow& t,
                            const models::accuracy::CompareThresholds& thresholds,
                            const std::function<bool()>& cancelled)
{
    PairOutcome out;
    if (!b.source || !t.source) {
        out.note = b.isTensor && t.isTensor ? Text::tr("No data file on one side.") : Text::tr("Not a tensor.");
        return out;
    }
    if (b.hasShape && t.hasShape && b.shape != t.shape) {
        out.verdict = models::accuracy::Verdict::Warning;
        return out;
    }
    // The pair stays open only while it is compared: both tensors are released when this returns.
    const models::tensor::TensorResult bt = b.source->open();
    const models::tensor::TensorResult tt = t.source->open();
    if (!bt.tensor || !tt.tensor) {
        out.note = !bt.tensor ? bt.error : tt.error;
        out.message = true;
        return out;
    }
    out.metrics = models::accuracy::computeTensorMetrics(*bt.tensor, *tt.tensor, cancelled);
    if (!out.metrics) {
        out.cancelled = true;
        return out;
    }
    if (!out.metrics->note.isEmpty())
        out.note = out.metrics->note;
    out.verdict = out.metrics->compared || bt.tensor->shape == tt.tensor->shape
        ? models::accuracy::tensorVerdict(*out.metrics, thresholds)
        : models::accuracy::Verdict::Warning;
    return out;
}

/// Computes pair outcomes on worker threads, a bounded number ahead of the one the caller takes next, so that
/// at most `threads` pairs are open and `window` outcomes wait at any time; the caller takes them in order.
/// With one thread nothing runs in the background: take() computes the pair itself.
class PairPipeline
{
public:
    PairPipeline(int count, int threads, std::function<PairOutcome(int, const std::function<bool()>&)> work,
                 std::function<bool()> cancelled)
        : m_count(count)
        , m_window(threads + 2)
        , m_work(std::move(work))
        , m_cancelled(std::move(cancelled))
        , m_done(std::size_t(threads > 1 ? count : 0))
    {
        if (threads <= 1)
            return;
        for (int i = 0; i < threads; ++i)
            m_threads.emplace_back([this] { run(); });
    }
    ~PairPipeline()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_changed.notify_all();
        for (std::thread& thread : m_threads)
            thread.join();
    }
    PairPipeline(const PairPipeline&) = delete;
    PairPipeline& operator=(const PairPipeline&) = delete;

    /// The outcome of pair `index`, waiting for it; indices are taken in increasing order.
    PairOutcome take(int index)
    {
        if (m_threads.empty())
            return m_work(index, m_cancelled);
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_done[std::size_t(index)].has_value(); });
        PairOutcome out = std::move(*m_done[std::size_t(index)]);
        m_done[std::size_t(index)].reset();
        m_taken = index + 1;
        lock.unlock();
        m_changed.notify_all();
        return out;
    }

private:
    void run()
    {
        const std::function<bool()> cancelled = [this] { return m_stop || (m_cancelled && m_cancelled()); };
        for (;;) {
            int index = 0;
            {
                std::unique_lock lock(m_mutex);
                m_changed.wait(lock, [&] { return m_stop || m_next >= m_count || m_next < m_taken + m_window; });
                if (m_stop || m_next >= m_count)
                    return;
                index = m_next++;
            }
            PairOutcome out = m_work(index, cancelled);
            {
                const std::lock_guard lock(m_mutex);
                m_done[std::size_t(index)] = std::move(out);
            }
            m_changed.notify_all();
        }
    }

    const int m_count;
    const int m_window;
    const std::function<PairOutcome(int, const std::function<bool()>&)> m_work;
    const std::function<bool()> m_cancelled;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<std::optional<PairOutcome>> m_done;
    std::vector<std::thread> m_threads;
    int m_next = 0;
    int m_taken = 0;
    std::atomic<bool> m_stop = false;
};

std::optional<models::accuracy::CompareResult>
compareGroupedSides(const models::accuracy::DumpSide& bench, const models::accuracy::DumpSide& target,
                    const CompareOptions& options, const ImportControl& control,
                    const std::function<void(const models::accuracy::CompareRow&)>& rowReady,
                    models::accuracy::CompareResult result);

} // namespace

DumpSideResult readDumpSide(const QString& path, const ImportControl& control)
{
    DumpSideResult out;
    const QFileInfo info(path);
    if (!info.exists()) {
        out.error = Text::tr("%1 does not exist.").arg(path);
        return out;
    }
    if (info.isFile()) {
        if (info.suffix().compare(QLatin1String("json"), Qt::CaseInsensitive) == 0)
            return readMsprobeSide(info.absoluteFilePath(), control);
        if (!isCheckpointFile(path)) {
            out.error = Text::tr("%1 is neither a dump folder, a dump.json nor a checkpoint (.pt, .npz, .safetensors).")
                            .arg(path);
            return out;
        }
        const QString suffix = info.suffix().toLower();
        const tensor::TensorListing listing = suffix == QLatin1String("npz") ? tensor::listNpzFile(path)
            : suffix == QLatin1String("safetensors")                         ? tensor::listSafetensorsFile(path)
                                                                             : tensor::listPtFile(path);
        if (!listing.error.isEmpty() && listing.tensors.isEmpty()) {
            out.error = listing.error;
            return out;
        }
        if (!listing.error.isEmpty())
            out.warnings << listing.error;
        for (const models::Diagnostic& d : listing.diagnostics)
            out.warnings << d.message;
        out.side = models::accuracy::sideFromCheckpoint(info.absoluteFilePath(), listing.tensors);
        return out;
    }
    if (!msprobeDumpJsonPath(path).isEmpty())
        return readMsprobeSide(info.absoluteFilePath(), control);
    const QStringList dumps = dumpJsonFilesBelow(info.absoluteFilePath());
    if (dumps.size() == 1)
        return readMsprobeSide(dumps.front(), control);
    if (dumps.size() > 1)
        return readMsprobeSides(info.absoluteFilePath(), dumps, control);
    const models::RunManifest manifest = RunScanner().scan(info.absoluteFilePath(), control);
    const models::tensor::TensorCatalog catalog = tensor::TensorCatalogBuilder::build(manifest, control);
    if (catalog.isEmpty()) {
        out.error = Text::tr("%1 holds no msprobe dump and no tensor dump.").arg(path);
        return out;
    }
    for (const models::Diagnostic& d : catalog.diagnostics())
        out.warnings << d.message;
    out.side = models::accuracy::sideFromCatalog(info.absoluteFilePath(), catalog);
    return out;
}

std::optional<models::accuracy::CompareResult>
compareDumpSides(const models::accuracy::DumpSide& bench, const models::accuracy::DumpSide& target,
                 const CompareOptions& options, const ImportControl& control,
                 const std::function<void(const models::accuracy::CompareRow&)>& rowReady)
{
    models::accuracy::CompareResult result;
    result.bench = bench.path;
    result.target = target.path;
    // One side spans several dumps (ranks, steps), the other names one: the one pairs with the dump of the
    // same stepN/rankM.
    std::optional<models::accuracy::DumpSide> labelled;
    auto withOwnGroup = [&labelled](const models::accuracy::DumpSide& side) -> const models::accuracy::DumpSide& {
        labelled = side;
        const QString label = ownGroupLabel(side.path);
        labelled->groups = { label };
        for (models::accuracy::SideRow& row : labelled->rows)
            row.group = label;
        return *labelled;
    };
    const bool benchSingle = bench.groups.isEmpty() && !target.groups.isEmpty();
    const bool targetSingle = target.groups.isEmpty() && !bench.groups.isEmpty();
    const models::accuracy::DumpSide& b0 = benchSingle ? withOwnGroup(bench) : bench;
    const models::accuracy::DumpSide& t0 = targetSingle ? withOwnGroup(target) : target;
    return compareGroupedSides(b0, t0, options, control, rowReady, std::move(result));
}

namespace {

std::optional<models::accuracy::CompareResult>
compareGroupedSides(const models::accuracy::DumpSide& bench, const models::accuracy::DumpSide& target,
                    const CompareOptions& options, const ImportControl& control,
                    const std::function<void(const models::accuracy::CompareRow&)>& rowReady,
                    models::accuracy::CompareResult result)
{
    for (const QString& g : bench.groups)
        if (!target.groups.contains(g))
            result.messages << Text::tr("%1 is only in the bench: its rows are listed unmatched.").arg(g);
    for (const QString& g : target.groups)
        if (!bench.groups.contains(g))
            result.messages << Text::tr("%1 is only in the target: its rows are listed unmatched.").arg(g);
    const models::accuracy::MatchResult match = models::accuracy::matchSides(bench, target, options.mapping);

    // The mode: real data when both sides have files for their rows, else what both msprobe dumps recorded.
    auto hasData = [](const models::accuracy::DumpSide& side) {
        return std::any_of(side.rows.begin(), side.rows.end(),
                           [](const models::accuracy::SideRow& r) { return bool(r.source); });
    };
    auto hasMd5 = [](const models::accuracy::DumpSide& side) {
        return std::any_of(side.rows.begin(), side.rows.end(),
                           [](const models::accuracy::SideRow& r) { return !r.md5.isEmpty(); });
    };
    if (hasData(bench) && hasData(target))
        result.mode = models::accuracy::CompareMode::Tensor;
    else if (hasMd5(bench) && hasMd5(target))
        result.mode = models::accuracy::CompareMode::Md5;
    else
        result.mode = models::accuracy::CompareMode::Statistics;

    const qsizetype total = std::max<qsizetype>(match.pairs.size(), 1);
    auto cancelled = [&control] { return control.canceled(); };
    // Tensor mode: pairs are compared on worker threads a few ahead of the row completed here.
    std::optional<PairPipeline> pipeline;
    if (result.mode == models::accuracy::CompareMode::Tensor) {
        const int threads
            = options.threads > 0 ? options.threads : int(std::max(1u, std::thread::hardware_concurrency()));
        pipeline.emplace(
            int(match.pairs.size()), std::min<int>(threads, int(std::max<qsizetype>(match.pairs.size(), 1))),
            [&](int i, const std::function<bool()>& stop) {
                const models::accuracy::MatchedPair& pair = match.pairs[i];
                return comparePairData(bench.rows[pair.bench], target.rows[pair.target], options.thresholds, stop);
            },
            cancelled);
    }
    for (qsizetype i = 0; i < match.pairs.size(); ++i) {
        if (control.canceled())
            return std::nullopt;
        control.report(int(1000 * i / total));
        const models::accuracy::MatchedPair& pair = match.pairs[i];
        const models::accuracy::SideRow& b = bench.rows[pair.bench];
        const models::accuracy::SideRow& t = target.rows[pair.target];
        models::accuracy::CompareRow row;
        row.name = models::accuracy::qualifiedName(t);
        row.benchName = models::accuracy::qualifiedName(b);
        row.targetName = models::accuracy::qualifiedName(t);
        row.group = t.group;
        row.op = t.op;
        row.opIndex = t.opIndex;
        row.kind = t.kind;
        row.index = t.index;
        row.rule = pair.rule;
        row.benchDtype = b.dtype;
        row.targetDtype = t.dtype;
        row.benchShape = b.shape;
        row.targetShape = t.shape;
        row.benchHasShape = b.hasShape;
        row.targetHasShape = t.hasShape;
        row.benchSource = b.sourceText;
        row.targetSource = t.sourceText;
        if (b.hasShape && t.hasShape && b.shape != t.shape)
            row.note = Text::tr("The shapes differ (%1 and %2).").arg(shapeOrNothing(b.shape), shapeOrNothing(t.shape));

        switch (result.mode) {
        case models::accuracy::CompareMode::Tensor: {
            PairOutcome outcome = pipeline->take(int(i));
            if (outcome.cancelled)
                return std::nullopt;
            row.verdict = outcome.verdict;
            if (outcome.note)
                row.note = *outcome.note;
            if (outcome.message)
                result.messages << row.note;
            if (outcome.metrics)
                row.tensor = std::move(*outcome.metrics);
            break;
        }
        case models::accuracy::CompareMode::Statistics:
            row.statistics = models::accuracy::computeStatisticsMetrics(b.stats, t.stats);
            row.verdict = models::accuracy::statisticsVerdict(*row.statistics, options.thresholds);
            break;
        case models::accuracy::CompareMode::Md5:
            row.benchMd5 = b.md5;
            row.targetMd5 = t.md5;
            row.verdict = models::accuracy::md5Verdict(b.md5, t.md5);
            break;
        }
        if (pair.rule == models::accuracy::MatchRule::Fuzzy)
            row.note = (row.note.isEmpty() ? QString() : row.note + QLatin1Char(' '))
                + Text::tr("Paired by call order: the call counters differ.");
        result.rows << row;
        if (rowReady)
            rowReady(result.rows.back());
    }
    for (int t : match.unmatchedTarget) {
        const models::accuracy::SideRow& s = target.rows[t];
        models::accuracy::CompareRow row;
        row.name = row.targetName = models::accuracy::qualifiedName(s);
        row.group = s.group;
        row.op = s.op;
        row.opIndex = s.opIndex;
        row.kind = s.kind;
        row.index = s.index;
        row.targetDtype = s.dtype;
        row.targetShape = s.shape;
        row.targetHasShape = s.hasShape;
        row.targetSource = s.sourceText;
        row.verdict = models::accuracy::Verdict::Unmatched;
        result.rows << row;
    }
    for (int b : match.unmatchedBench) {
        const models::accuracy::SideRow& s = bench.rows[b];
        models::accuracy::CompareRow row;
        row.name = row.benchName = models::accuracy::qualifiedName(s);
        row.group = s.group;
        row.op = s.op;
        row.opIndex = s.opIndex;
        row.kind = s.kind;
        row.index = s.index;
        row.benchDtype = s.dtype;
        row.benchShape = s.shape;
        row.benchHasShape = s.hasShape;
        row.benchSource = s.sourceText;
        row.verdict = models::accuracy::Verdict::Unmatched;
        result.rows << row;
    }
    result.firstDivergence = models::accuracy::findDivergence(result.rows, options.failLevel);
    control.report(1000);
    return result;
}

} // namespace

std::optional<models::accuracy::CompareResult> compareDumps(const QString& bench, const QString& target,
                                                            const CompareOptions& options, QString* error,
                                                            const ImportControl& control)
{
    const DumpSideResult b = readDumpSide(bench, control);
    if (!b.side) {
        if (error)
            *error = Text::tr("Bench: %1").arg(b.error);
        return std::nullopt;
    }
    const DumpSideResult t = readDumpSide(target, control);
    if (!t.side) {
        if (error)
            *error = Text::tr("Target: %1").arg(t.error);
        return std::nullopt;
    }
    std::optional<models::accuracy::CompareResult> result = compareDumpSides(*b.side, *t.side, options, control);
    if (result) {
        result->bench = bench;
        result->target = target;
        result->messages = b.warnings + t.warnings + result->messages;
    } else if (error) {
        *error = Text::tr("The comparison was cancelled.");
    }
    return result;
}

} // namespace runlens::importers::accuracy
