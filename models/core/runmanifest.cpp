#include "models/core/runmanifest.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace runlens::models {

namespace {

char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

/// `text` equals `lowercase` ignoring ASCII case.
bool equalsLower(std::string_view text, std::string_view lowercase)
{
    if (text.size() != lowercase.size())
        return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (lower(text[i]) != lowercase[i])
            return false;
    }
    return true;
}

bool startsWithLower(std::string_view text, std::string_view lowercase)
{
    return text.size() >= lowercase.size() && equalsLower(text.substr(0, lowercase.size()), lowercase);
}

bool endsWithLower(std::string_view text, std::string_view lowercase)
{
    return text.size() >= lowercase.size() && equalsLower(text.substr(text.size() - lowercase.size()), lowercase);
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// `step_3`, `step-3`, `step3`: the word, an optional `_` or `-`, then only digits.
bool isNumbered(std::string_view name, std::string_view word)
{
    if (!startsWithLower(name, word))
        return false;
    std::string_view rest = name.substr(word.size());
    if (!rest.empty() && (rest.front() == '_' || rest.front() == '-'))
        rest.remove_prefix(1);
    if (rest.empty())
        return false;
    for (const char c : rest) {
        if (!isDigit(c))
            return false;
    }
    return true;
}

} // namespace

bool isArtifactFolderName(std::string_view name)
{
    // The names below come from what TensorBoard, torch.profiler, TF's profile plugin, MindSpore (summary,
    // dump, profiler), CANN msprof, msprobe, Lightning, Hugging Face and DeepSpeed write, and from the
    // folders people create for those outputs.
    static constexpr std::string_view kNames[] = {
        "tb",
        "tensorboard",
        "tb_logs",
        "tensorboard_logs",
        "logs",
        "log",
        "events",
        "summary",
        "summaries",
        "vis_data",
        "plugins",
        "profile",
        "profiles",
        "profiler",
        "profilers",
        "profiling",
        "prof",
        "profile_data",
        "profiler_output",
        "cluster_profiler",
        "ascend_profiler_output",
        "framework",
        "mindstudio_profiler_output",
        "mindstudio_profiler_log",
        "trace",
        "traces",
        "timeline",
        "dump",
        "dumps",
        "dump_data",
        "dump_tensor_data",
        "msprobe",
        "pynative",
        "graph",
        "graphs",
        "execution_order",
        "kernel_meta",
        "checkpoints",
        "checkpoint",
        "ckpt",
        "ckpts",
        "system",
        "rank",
        "device",
    };
    for (const std::string_view known : kNames) {
        if (equalsLower(name, known))
            return true;
    }
    static constexpr std::string_view kNumbered[] = {
        "step", "global_step", "iter", "iteration", "epoch", "rank", "device", "checkpoint", "ckpt",
    };
    for (const std::string_view word : kNumbered) {
        if (isNumbered(name, word))
            return true;
    }
    // CANN's `PROF_000001_20240101123456789_ABCDEF`, torch_npu's `{host}_{pid}_{ts}_ascend_pt` and
    // MindSpore's `{host}_{pid}_{ts}_ascend_ms`.
    if (startsWithLower(name, "prof_") && name.size() > 5 && isDigit(name[5]))
        return true;
    return endsWithLower(name, "_ascend_pt") || endsWithLower(name, "_ascend_ms");
}

QString runDisplayName(const QString& root, const QString& run)
{
    if (run != QLatin1String("."))
        return run;
    const QString folder = QDir::cleanPath(QDir::fromNativeSeparators(root));
    QString own = QFileInfo(folder).fileName();
    if (own.isEmpty())
        return run; // the file system's root
    // `job/tb` or `job/dump/step_3` opened alone is still the job's run; the climb stops below the home
    // folder and the file system's root, which name no job.
    const QString home = QDir::cleanPath(QDir::homePath());
    QString dir = folder;
    QString name = own;
    while (isArtifactFolderName(QFile::encodeName(name).toStdString())) {
        const QString parent = QFileInfo(dir).path();
        const QString parentName = QFileInfo(parent).fileName();
        if (parent == dir || parentName.isEmpty() || parent == home)
            return own;
        dir = parent;
        name = parentName;
    }
    return name;
}

QString RunManifest::runDisplayName(const QString& run) const
{
    return runlens::models::runDisplayName(root, run);
}

QStringList RunManifest::runs() const
{
    QStringList out;
    for (const Artifact& artifact : artifacts) {
        if (out.isEmpty() || out.constLast() != artifact.run) {
            if (!out.contains(artifact.run))
                out.append(artifact.run);
        }
    }
    return out;
}

QList<int> RunManifest::artifactsOfRun(const QString& run) const
{
    QList<int> out;
    for (int i = 0; i < artifacts.size(); ++i) {
        if (artifacts[i].run == run)
            out.append(i);
    }
    return out;
}

int RunManifest::indexOfPath(const QString& path) const
{
    for (int i = 0; i < artifacts.size(); ++i) {
        if (artifacts[i].path == path)
            return i;
    }
    return -1;
}

} // namespace runlens::models
