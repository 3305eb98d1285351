#include "importers/core/runscannerparts.h"

#include <QCoreApplication>

#include <algorithm>
#include <map>
#include <unordered_set>

namespace runlens::importers::detail {

namespace {

bool isSummaryStream(models::ArtifactKind kind)
{
    return models::isSummaryKind(kind) || kind == models::ArtifactKind::MindSporeLineage
        || kind == models::ArtifactKind::VisualDlLog;
}

/// Scalars other loggers write: like event files, their folder is their run.
bool isLoggerStream(models::ArtifactKind kind)
{
    return kind == models::ArtifactKind::Table || kind == models::ArtifactKind::TrainerState
        || kind == models::ArtifactKind::MlflowRun || kind == models::ArtifactKind::GpuMetricsLog
        || kind == models::ArtifactKind::WandbRun;
}

/// Rank precedence: what the file says about itself (Kineto `distributedInfo.rank`), then its own name
/// (`rank-3.<ts>.pt.trace.json`, MindSpore `profiler_info_3.json`), then the nearest folder named like
/// `rank_3`/`rank-3`/`rank3`, then the opened folder's own name.
std::optional<int> rankOf(const FoundFile& file, const std::string& rootName)
{
    if (file.sniff.contentRank)
        return file.sniff.contentRank;
    const std::string_view rel(file.rel);
    const std::string_view base = file.dirLength == 0 ? rel : rel.substr(file.dirLength + 1);
    if (auto rank = FileSniffer::rankFromName(base))
        return rank;
    if (file.sniff.nameRank)
        return file.sniff.nameRank;
    std::string_view dir = rel.substr(0, file.dirLength);
    while (!dir.empty()) {
        const std::size_t slash = dir.rfind('/');
        const std::string_view component = slash == std::string_view::npos ? dir : dir.substr(slash + 1);
        if (auto rank = FileSniffer::rankFromName(component))
            return rank;
        dir = slash == std::string_view::npos ? std::string_view() : dir.substr(0, slash);
    }
    return FileSniffer::rankFromName(rootName);
}

std::string_view parentOf(std::string_view dir)
{
    const std::size_t slash = dir.rfind('/');
    return slash == std::string_view::npos ? std::string_view() : dir.substr(0, slash);
}

std::string_view lastComponent(std::string_view dir)
{
    const std::size_t slash = dir.rfind('/');
    return slash == std::string_view::npos ? dir : dir.substr(slash + 1);
}

/// `dir` without its trailing artifact-named folders: "job/tb/rank_0" -> "job", "runs/exp1" -> itself.
std::string_view withoutTrailingArtifactFolders(std::string_view dir)
{
    while (!dir.empty() && models::isArtifactFolderName(lastComponent(dir)))
        dir = parentOf(dir);
    return dir;
}

/// The folder above the lowest block of artifact-named folders on `dir` ("job/dump/step_3/net" -> "job"), or
/// nothing when no folder on it has such a name.
std::optional<std::string_view> jobAbove(std::string_view dir)
{
    bool inBlock = false;
    while (!dir.empty()) {
        if (models::isArtifactFolderName(lastComponent(dir)))
            inBlock = true;
        else if (inBlock)
            return dir;
        dir = parentOf(dir);
    }
    return inBlock ? std::optional(std::string_view()) : std::nullopt;
}

/// The first folder name of `dir` below its ancestor `above` ("" for the opened folder).
std::string_view componentBelow(std::string_view dir, std::string_view above)
{
    std::string_view rest = above.empty() ? dir : dir.substr(above.size() + 1);
    const std::size_t slash = rest.find('/');
    return slash == std::string_view::npos ? rest : rest.substr(0, slash);
}

/// Run grouping: a run is a training job, named by its folder relative to the opened folder ("." for the
/// opened folder itself). Folders with the names tools give to a job's outputs (isArtifactFolderName: `tb`,
/// `logs`, `profiler`, `dump`, `graph`, `checkpoints`, `step_N`, `rank_N`, `PROF_*` ...) belong to the run
/// above them.
///  1. Summary streams (TensorBoard events, MindSpore summaries and lineage, VisualDL logs) follow TensorBoard:
///     each folder holding them is a run of its own (an `add_hparams` time-stamped sub-folder too), named
///     after the folder without its trailing artifact-named folders (`job/tb/` -> `job`). When that would
///     put two such folders into one run (`job/tb/rank_0/`, `job/tb/rank_1/`), each keeps its own name as
///     TensorBoard would, so two event streams are never read as one.
///  2. A folder is a job when some file lies under an artifact-named folder of it: the folder above the
///     lowest block of artifact-named folders on the file's path (`job/dump/step_3/net/` -> `job`). A job
///     found inside an artifact folder of another run (`job/logs/worker/profiler/`) is part of that run.
///  3. Any other file belongs to the nearest run (rule 1 or 2) at or above its folder.
///  4. Otherwise MindInsight's rule applies: runs are the opened folder and its direct sub-folders, so the
///     run is the first component of the file's path, or "." for files directly in the opened folder.
/// Every step works on the distinct folders, each looked at once per level: O(folders x depth).
void assignRuns(const std::vector<FoundFile>& files, std::vector<std::string>& runs)
{
    // Views into the files' paths, which stay put while this runs.
    auto dirOf = [](const FoundFile& file) { return std::string_view(file.rel).substr(0, file.dirLength); };

    std::unordered_set<std::string_view> dirs;
    std::unordered_set<std::string_view> summaryDirs;
    for (const FoundFile& file : files) {
        dirs.insert(dirOf(file));
        if (isSummaryStream(file.sniff.kind))
            summaryDirs.insert(dirOf(file));
    }

    // 1. Event runs.
    std::unordered_map<std::string_view, int> lifted;
    for (const std::string_view dir : summaryDirs)
        ++lifted[withoutTrailingArtifactFolders(dir)];
    std::unordered_map<std::string_view, std::string_view> eventRun;
    std::unordered_set<std::string_view> runDirs;
    for (const std::string_view dir : summaryDirs) {
        const std::string_view target = withoutTrailingArtifactFolders(dir);
        const std::string_view run = lifted[target] == 1 ? target : dir;
        eventRun.emplace(dir, run);
        runDirs.insert(run);
    }

    // 1b. Other loggers' folders, named like event folders without taking part in their collision rule (a
    // `metrics.csv` beside `tb/` stays in the job's run). W&B keeps a run's files in `run-<time>-<id>/files/`.
    std::unordered_map<std::string_view, std::string_view> loggerRun;
    for (const FoundFile& file : files) {
        if (!isLoggerStream(file.sniff.kind))
            continue;
        std::string_view dir = dirOf(file);
        const std::string_view parent = parentOf(dir);
        if (lastComponent(dir) == "files"
            && (lastComponent(parent).substr(0, 4) == "run-" || lastComponent(parent).substr(0, 12) == "offline-run-"))
            dir = parent;
        const std::string_view run = withoutTrailingArtifactFolders(dir);
        loggerRun.emplace(dirOf(file), run);
        runDirs.insert(run);
    }

    // 2. Jobs, less those inside another run's artifact folders.
    std::unordered_set<std::string_view> jobs;
    for (const std::string_view dir : dirs) {
        if (const auto job = jobAbove(dir))
            jobs.insert(*job);
    }
    auto isRunOrJob = [&](std::string_view dir) { return runDirs.count(dir) > 0 || jobs.count(dir) > 0; };
    for (const std::string_view job : jobs) {
        bool inside = false;
        for (std::string_view above = job; !above.empty() && !inside;) {
            above = parentOf(above);
            inside = isRunOrJob(above) && models::isArtifactFolderName(componentBelow(job, above));
        }
        if (!inside)
            runDirs.insert(job);
    }

    // 3 and 4, once per folder.
    std::unordered_map<std::string_view, std::string> runOfDir;
    for (const std::string_view dir : dirs) {
        std::string_view up = dir;
        while (!runDirs.count(up) && !up.empty())
            up = parentOf(up);
        std::string run;
        if (runDirs.count(up)) {
            run = up.empty() ? std::string(".") : std::string(up);
        } else {
            const std::size_t slash = dir.find('/');
            run = dir.empty() ? std::string(".") : std::string(dir.substr(0, slash));
        }
        runOfDir.emplace(dir, std::move(run));
    }

    runs.resize(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        const FoundFile& file = files[i];
        if (isSummaryStream(file.sniff.kind) || isLoggerStream(file.sniff.kind)) {
            const std::string_view run
                = isSummaryStream(file.sniff.kind) ? eventRun.at(dirOf(file)) : loggerRun.at(dirOf(file));
            runs[i] = run.empty() ? std::string(".") : std::string(run);
        } else {
            runs[i] = runOfDir.at(dirOf(file));
        }
    }
}

void reportMismatches(const std::vector<FoundFile>& files, const std::string& rootBytes, models::RunManifest& manifest)
{
    for (const FoundFile& file : files) {
        if (file.sniff.kind != models::ArtifactKind::Unknown
            || file.sniff.expectedByName == models::ArtifactKind::Unknown)
            continue;
        const QString path = fromBytes(underRoot(rootBytes, file.rel));
        const QString kind = models::artifactKindName(file.sniff.expectedByName);
        if (file.size == 0) {
            manifest.diagnostics.append(models::Diagnostic {
                models::Severity::Info, path, -1, -1,
                QCoreApplication::translate(
                    "runlens::importers::RunScanner",
                    "%1 is named like a %2 file but is empty, perhaps not written yet; scan again later.")
                    .arg(path, kind) });
        } else {
            manifest.diagnostics.append(models::Diagnostic {
                models::Severity::Warning, path, -1, -1,
                QCoreApplication::translate("runlens::importers::RunScanner",
                                            "%1 is named like a %2 file but its content is not one; it was left out.")
                    .arg(path, kind) });
        }
    }
}

/// An MLflow run folder is named by its id, a W&B run folder by its time and id; the run is shown under the name
/// the logger gives it (MLflow's `run_name`, W&B's display name), unless two runs beside each other share that name.
void nameRunsAsTheirLoggers(const std::vector<FoundFile>& files, std::vector<std::string>& runs)
{
    std::map<std::string, std::string> renamed; // run folder -> its run's name
    std::map<std::string, int> uses;
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::string& name = files[i].sniff.runName;
        const bool logger = files[i].sniff.kind == models::ArtifactKind::MlflowRun
            || files[i].sniff.kind == models::ArtifactKind::WandbRun;
        // A name that is not one folder name would put the run somewhere else in the tree.
        if (!logger || name.empty() || name.size() > 200 || name.find('/') != std::string::npos || name == "."
            || name == ".." || runs[i] == ".")
            continue;
        const std::string_view parent = parentOf(runs[i]);
        const std::string target = parent.empty() ? name : std::string(parent) + '/' + name;
        renamed.emplace(runs[i], target);
        ++uses[target];
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
        const auto found = renamed.find(runs[i]);
        if (found != renamed.end() && uses[found->second] == 1)
            runs[i] = found->second;
    }
}

} // namespace

void buildManifest(std::vector<FoundFile>& files, const std::string& rootBytes, const std::string& rootName,
                   const RunScanner::Options& options, models::RunManifest& manifest)
{
    // A symbolic link to a file that is also listed under its real name would be imported twice.
    std::unordered_set<FileKey, FileKeyHash> direct;
    for (const FoundFile& file : files) {
        if (!file.viaSymlink)
            direct.insert(file.key);
    }
    files.erase(std::remove_if(files.begin(), files.end(),
                               [&](const FoundFile& file) { return file.viaSymlink && direct.count(file.key); }),
                files.end());

    reportMismatches(files, rootBytes, manifest);

    std::vector<std::string> runs;
    assignRuns(files, runs);
    nameRunsAsTheirLoggers(files, runs);

    std::vector<std::size_t> order;
    order.reserve(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (files[i].sniff.kind != models::ArtifactKind::Unknown || options.includeUnknown)
            order.push_back(i);
    }
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const int byRun = runs[a].compare(runs[b]);
        return byRun != 0 ? byRun < 0 : files[a].rel < files[b].rel;
    });

    const QString root = fromBytes(rootBytes);
    manifest.artifacts.reserve(qsizetype(order.size()));
    QString lastRunName;
    std::string lastRun;
    for (const std::size_t i : order) {
        const FoundFile& file = files[i];
        models::Artifact artifact;
        artifact.relativePath = fromBytes(file.rel);
        artifact.path = root.endsWith(QLatin1Char('/')) ? root + artifact.relativePath
                                                        : root + QLatin1Char('/') + artifact.relativePath;
        artifact.kind = file.sniff.kind;
        if (runs[i] != lastRun || lastRunName.isNull()) {
            lastRun = runs[i];
            lastRunName = fromBytes(lastRun);
        }
        artifact.run = lastRunName;
        artifact.rank = rankOf(file, rootName);
        artifact.size = file.size;
        artifact.modified = QDateTime::fromMSecsSinceEpoch(file.mtimeMs);
        manifest.artifacts.append(std::move(artifact));
    }
}

} // namespace runlens::importers::detail
