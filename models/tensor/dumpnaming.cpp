#include "models/tensor/dumpnaming.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>

namespace runlens::models::tensor {

namespace {

bool isNumber(const QString& text)
{
    return !text.isEmpty() && std::all_of(text.begin(), text.end(), [](QChar c) { return c.isDigit(); });
}

const QRegularExpression& stepFolderPattern()
{
    static const QRegularExpression pattern(QStringLiteral("^(?:step|iteration|iter)[_-]?(\\d+)$"),
                                            QRegularExpression::CaseInsensitiveOption);
    return pattern;
}

const QRegularExpression& stepFileNamePattern()
{
    static const QRegularExpression pattern(
        QStringLiteral("(?:^|[._-])(?:step|iteration|iter|global_step|checkpoint|ckpt)[_-]?(\\d+)(?=$|[._-])"),
        QRegularExpression::CaseInsensitiveOption);
    return pattern;
}

} // namespace

DumpFileName parseDumpFileName(const QString& fileName)
{
    QString base = fileName;
    if (base.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive))
        base.chop(4);
    const QStringList parts = base.split(QLatin1Char('.'));
    DumpFileName out;
    // MindSpore: the io word sits after op type, op name (maybe dotted), task, stream and timestamp, and is
    // followed by the slot and the format (and newer versions a dtype).
    for (int io = int(parts.size()) - 3; io >= 5; --io) {
        const QString& word = parts[io];
        if ((word != QLatin1String("input") && word != QLatin1String("output")) || !isNumber(parts[io + 1])
            || !isNumber(parts[io - 1]) || !isNumber(parts[io - 2]) || !isNumber(parts[io - 3]))
            continue;
        out.opType = parts[0];
        out.nodeKey = parts.mid(1, io - 4).join(QLatin1Char('.'));
        out.io = word == QLatin1String("input") ? graph::DumpIo::Input : graph::DumpIo::Output;
        out.slot = parts[io + 1].toInt();
        out.kind = word;
        return out;
    }
    // Torch-style: everything before the last dot is the module path.
    const int dot = int(base.lastIndexOf(QLatin1Char('.')));
    if (dot <= 0) {
        out.nodeKey = base;
        return out;
    }
    out.nodeKey = base.left(dot);
    out.kind = base.mid(dot + 1);
    return out;
}

int stepOfFolderName(const QString& folderName)
{
    const QRegularExpressionMatch m = stepFolderPattern().match(folderName);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

int stepOfFolders(const QString& relativePath)
{
    const QStringList dirs = relativePath.split(QLatin1Char('/')).mid(0, relativePath.count(QLatin1Char('/')));
    for (int i = int(dirs.size()) - 1; i >= 0; --i) {
        if (const int step = stepOfFolderName(dirs[i]); step >= 0)
            return step;
    }
    // MindSpore: {net}/{graph_id}/{iteration}/file, so the two innermost folders are numbers (the net folder
    // itself may be the opened root).
    if (dirs.size() >= 2 && isNumber(dirs.last()) && isNumber(dirs[dirs.size() - 2]))
        return dirs.last().toInt();
    return -1;
}

int stepOfFileName(const QString& fileName)
{
    const QRegularExpressionMatch m = stepFileNamePattern().match(fileName);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

QString withoutStepNumber(const QString& base)
{
    const QRegularExpressionMatch m = stepFileNamePattern().match(base);
    if (!m.hasMatch())
        return base;
    QString out = base.left(m.capturedStart(1));
    while (!out.isEmpty() && (out.endsWith(QLatin1Char('_')) || out.endsWith(QLatin1Char('-'))))
        out.chop(1);
    return out + base.mid(m.capturedEnd(1));
}

QString folderWithoutStep(const QString& relativePath, bool mindsporeLayout)
{
    QStringList dirs = relativePath.split(QLatin1Char('/'));
    dirs.removeLast();
    for (int i = int(dirs.size()) - 1; i >= 0; --i) {
        if (stepOfFolderName(dirs[i]) >= 0) {
            dirs.removeAt(i);
            return dirs.join(QLatin1Char('/'));
        }
    }
    if (mindsporeLayout && !dirs.isEmpty())
        dirs.removeLast(); // {net}/{graph_id}/{iteration}
    return dirs.join(QLatin1Char('/'));
}

QString runWithoutStep(const QString& run)
{
    const int slash = int(run.lastIndexOf(QLatin1Char('/')));
    if (stepOfFolderName(run.mid(slash + 1)) < 0)
        return run;
    return slash <= 0 ? QStringLiteral(".") : run.left(slash);
}

std::optional<DumpFileName> parseMsprobeDataName(const QString& relativePath)
{
    const QFileInfo info(relativePath);
    if (QFileInfo(info.path()).fileName() != QLatin1String("dump_tensor_data"))
        return std::nullopt;
    const QString stem = info.completeBaseName();
    const QStringList parts = stem.split(QLatin1Char('.'));
    static const QStringList kCategories { QStringLiteral("input"), QStringLiteral("output"),
                                           QStringLiteral("parameters"), QStringLiteral("kwargs") };
    const auto isCounter = [](const QString& text) {
        bool ok = false;
        text.toUInt(&ok);
        return ok;
    };
    for (qsizetype i = parts.size() - 2; i >= 1; --i) {
        const QString& word = parts[i];
        qsizetype end = -1; // index of the entry name's last part
        if (word == QLatin1String("forward") || word == QLatin1String("backward")) {
            if (kCategories.contains(parts[i + 1]))
                end = i;
            else if (i + 2 < parts.size() && isCounter(parts[i + 1]) && kCategories.contains(parts[i + 2]))
                end = i + 1;
        } else if (word == QLatin1String("parameters_grad")) {
            end = isCounter(parts[i + 1]) && i + 2 < parts.size() ? i + 1 : i;
        }
        if (end < 0)
            continue;
        DumpFileName name;
        name.nodeKey = parts.mid(0, end + 1).join(QLatin1Char('.'));
        name.kind = parts.mid(end + 1).join(QLatin1Char('.'));
        const QString& category = parts[end + 1];
        name.io = category == QLatin1String("output") ? graph::DumpIo::Output : graph::DumpIo::Input;
        return name;
    }
    return std::nullopt;
}

} // namespace runlens::models::tensor
