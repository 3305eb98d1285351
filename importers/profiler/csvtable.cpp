#include "importers/profiler/csvtable.h"

#include <QCoreApplication>
#include <QFile>

#include <charconv>
#include <cmath>
#include <limits>

namespace runlens::importers::profiler {

namespace {

// Enough to show the pattern of a broken file without flooding the diagnostics list.
constexpr int kMaxRowDiagnostics = 20;

QString trCsv(const char* text)
{
    return QCoreApplication::translate("runlens::importers::profiler::CsvTable", text);
}

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

QByteArrayView trimmed(QByteArrayView view, char delimiter)
{
    qsizetype begin = 0;
    qsizetype end = view.size();
    // A tab is data, not padding, when it separates the fields.
    auto pad = [delimiter](char c) { return isBlank(c) && c != delimiter; };
    while (begin < end && pad(view[begin]))
        ++begin;
    while (end > begin && pad(view[end - 1]))
        --end;
    return view.sliced(begin, end - begin);
}

char detectDelimiter(QByteArrayView data)
{
    qsizetype commas = 0;
    qsizetype tabs = 0;
    bool quoted = false;
    for (char c : data) {
        if (c == '"')
            quoted = !quoted;
        else if (!quoted && c == '\n')
            break;
        else if (!quoted && c == ',')
            ++commas;
        else if (!quoted && c == '\t')
            ++tabs;
    }
    return tabs > commas ? '\t' : ',';
}

} // namespace

/// The state of one pass over the bytes; fills a CsvTable.
class CsvParser
{
public:
    CsvParser(CsvTable& table, QByteArrayView data)
        : m_table(table)
        , m_data(data)
    { }

    void run()
    {
        if (m_data.startsWith("\xEF\xBB\xBF"))
            m_pos = 3;
        // Quoted fields are unescaped after the data, so the buffer holds at most twice the input.
        m_table.m_buffer.reserve(m_data.size() + 64);
        m_table.m_buffer.append(m_data.constData(), m_data.size());
        bool headerDone = false;
        while (m_pos < m_data.size()) {
            const qsizetype rowStart = m_pos;
            const qint64 rowLine = m_line;
            const size_t firstField = m_table.m_fields.size();
            if (!readRow(true)) {
                // An unterminated quote would swallow the rest of the file: read that line again with quotes
                // taken literally, and go on from the next line.
                m_table.m_fields.resize(firstField);
                m_table.m_buffer.truncate(m_unescapeMark);
                addRowDiagnostic(rowLine, trCsv("a quoted field is not closed; the line is read without quoting"));
                m_pos = rowStart;
                m_line = rowLine;
                readRow(false);
            }
            const size_t count = m_table.m_fields.size() - firstField;
            if (isBlankRow(firstField, count)) {
                m_table.m_fields.resize(firstField);
                continue;
            }
            if (!headerDone) {
                takeHeader(firstField, count);
                m_table.m_fields.resize(firstField);
                headerDone = true;
                continue;
            }
            checkWidth(rowLine, int(count), firstField);
            m_table.m_rowFirstField.push_back(quint32(firstField));
            m_table.m_rowLines.push_back(rowLine);
        }
        m_table.m_rowFirstField.push_back(quint32(m_table.m_fields.size()));
        if (!headerDone)
            m_table.m_diagnostics.append(
                m_table.fileDiagnostic(trCsv("The table is empty: no header line was found"), models::Severity::Error));
        if (m_suppressed > 0) {
            m_table.m_diagnostics.append(m_table.fileDiagnostic(QCoreApplication::translate(
                "runlens::importers::profiler::CsvTable", "%n more line(s) with problems were not listed", nullptr,
                int(m_suppressed))));
        }
    }

private:
    /// Reads one record from m_pos; returns false on a quote left open at the end of the data.
    bool readRow(bool allowQuotes)
    {
        m_unescapeMark = m_table.m_buffer.size();
        const char delimiter = m_table.m_delimiter;
        while (true) {
            const qsizetype fieldStart = m_pos;
            bool quotedField = false;
            if (allowQuotes) {
                qsizetype p = m_pos;
                while (p < m_data.size() && isBlank(m_data[p]) && m_data[p] != delimiter)
                    ++p;
                quotedField = p < m_data.size() && m_data[p] == '"';
                if (quotedField)
                    m_pos = p;
            }
            if (quotedField) {
                if (!readQuotedField())
                    return false;
            } else {
                while (m_pos < m_data.size() && m_data[m_pos] != delimiter && m_data[m_pos] != '\n')
                    ++m_pos;
                addField(fieldStart, m_pos - fieldStart);
            }
            if (m_pos >= m_data.size())
                return true;
            if (m_data[m_pos] == '\n') {
                ++m_pos;
                ++m_line;
                return true;
            }
            ++m_pos; // the delimiter
            if (m_pos >= m_data.size()) {
                addField(m_pos, 0); // "a,b," ends with an empty field
                return true;
            }
        }
    }

    /// Reads a field starting at the opening quote; leaves m_pos at the delimiter, newline or end.
    bool readQuotedField()
    {
        const char delimiter = m_table.m_delimiter;
        const qint64 startLine = m_line;
        ++m_pos; // opening quote
        QByteArray& buffer = m_table.m_buffer;
        const qsizetype begin = buffer.size();
        while (true) {
            if (m_pos >= m_data.size())
                return false;
            const char c = m_data[m_pos];
            if (c == '"') {
                if (m_pos + 1 < m_data.size() && m_data[m_pos + 1] == '"') {
                    buffer.append('"');
                    m_pos += 2;
                    continue;
                }
                ++m_pos;
                break;
            }
            if (c == '\n')
                ++m_line;
            buffer.append(c);
            ++m_pos;
        }
        // Text between the closing quote and the delimiter is kept: writers that quote only part of a field exist.
        bool stray = false;
        while (m_pos < m_data.size() && m_data[m_pos] != delimiter && m_data[m_pos] != '\n') {
            if (!isBlank(m_data[m_pos]))
                stray = true;
            buffer.append(m_data[m_pos]);
            ++m_pos;
        }
        if (stray)
            addRowDiagnostic(startLine, trCsv("text follows the closing quote of a field; it is kept"));
        m_table.m_fields.push_back(makeField(begin, buffer.size() - begin));
        return true;
    }

    void addField(qsizetype dataOffset, qsizetype length)
    {
        // Unquoted fields point into the copy of the input at the start of the buffer.
        m_table.m_fields.push_back(makeField(dataOffset, length));
    }

    CsvTable::Field makeField(qsizetype offset, qsizetype length) const
    {
        const QByteArrayView view
            = trimmed(QByteArrayView(m_table.m_buffer.constData() + offset, length), m_table.m_delimiter);
        return { quint32(view.data() - m_table.m_buffer.constData()), quint32(view.size()) };
    }

    bool isBlankRow(size_t firstField, size_t count) const
    {
        for (size_t i = firstField; i < firstField + count; ++i) {
            if (m_table.m_fields[i].length > 0)
                return false;
        }
        return true;
    }

    void takeHeader(size_t firstField, size_t count)
    {
        // Trailing empty header cells ("a,b,") name no column.
        while (count > 0 && m_table.m_fields[firstField + count - 1].length == 0)
            --count;
        for (size_t i = 0; i < count; ++i) {
            const CsvTable::Field& field = m_table.m_fields[firstField + i];
            const QString name = QString::fromUtf8(m_table.m_buffer.constData() + field.offset, field.length);
            const int index = int(m_table.m_header.size());
            m_table.m_header.append(name);
            const QString key = CsvTable::headerKey(name);
            if (!key.isEmpty() && !m_table.m_columnByKey.contains(key))
                m_table.m_columnByKey.insert(key, index);
        }
    }

    void checkWidth(qint64 line, int count, size_t firstField)
    {
        const int expected = m_table.columnCount();
        if (count == expected)
            return;
        if (count > expected) {
            // Extra empty cells (a trailing delimiter) are harmless.
            bool extraEmpty = true;
            for (size_t i = firstField + size_t(expected); i < firstField + size_t(count); ++i)
                extraEmpty = extraEmpty && m_table.m_fields[i].length == 0;
            if (extraEmpty)
                return;
        }
        addRowDiagnostic(line, trCsv("%1 field(s) where the header has %2").arg(count).arg(expected));
    }

    void addRowDiagnostic(qint64 line, const QString& message)
    {
        if (m_rowDiagnostics >= kMaxRowDiagnostics) {
            ++m_suppressed;
            return;
        }
        ++m_rowDiagnostics;
        models::Diagnostic diagnostic;
        diagnostic.severity = models::Severity::Warning;
        diagnostic.file = m_table.m_fileName;
        diagnostic.line = line;
        diagnostic.message = message;
        m_table.m_diagnostics.append(diagnostic);
    }

    CsvTable& m_table;
    QByteArrayView m_data;
    qsizetype m_pos = 0;
    qint64 m_line = 1;
    qsizetype m_unescapeMark = 0;
    int m_rowDiagnostics = 0;
    qint64 m_suppressed = 0;
};

CsvTable CsvTable::parse(QByteArrayView data, const QString& fileName, const Options& options)
{
    CsvTable table;
    table.m_fileName = fileName;
    if (data.size() > options.maxBytes || data.size() > qsizetype(std::numeric_limits<quint32>::max() / 2)) {
        table.m_rowFirstField.push_back(0);
        table.m_diagnostics.append(table.fileDiagnostic(
            trCsv("The table is too large to read (%1 bytes); split it or read a smaller export").arg(data.size()),
            models::Severity::Error));
        return table;
    }
    QByteArrayView body = data;
    if (body.startsWith("\xEF\xBB\xBF"))
        body = body.sliced(3);
    table.m_delimiter = options.delimiter != 0 ? options.delimiter : detectDelimiter(body);
    CsvParser parser(table, data);
    parser.run();
    return table;
}

CsvTable CsvTable::readFile(const QString& path, const Options& options)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        CsvTable table;
        table.m_fileName = path;
        table.m_rowFirstField.push_back(0);
        table.m_diagnostics.append(
            table.fileDiagnostic(trCsv("Cannot open the table: %1").arg(file.errorString()), models::Severity::Error));
        return table;
    }
    if (file.size() > options.maxBytes) {
        CsvTable table;
        table.m_fileName = path;
        table.m_rowFirstField.push_back(0);
        table.m_diagnostics.append(table.fileDiagnostic(
            trCsv("The table is too large to read (%1 bytes); split it or read a smaller export").arg(file.size()),
            models::Severity::Error));
        return table;
    }
    const QByteArray data = file.readAll();
    return parse(data, path, options);
}

QString CsvTable::headerKey(QStringView name)
{
    QString key;
    key.reserve(name.size());
    for (QChar c : name) {
        if (!c.isSpace())
            key.append(c.toLower());
    }
    return key;
}

int CsvTable::column(std::initializer_list<const char*> names) const
{
    for (const char* name : names) {
        const auto it = m_columnByKey.constFind(headerKey(QString::fromUtf8(name)));
        if (it != m_columnByKey.constEnd())
            return it.value();
    }
    return -1;
}

int CsvTable::column(const QString& name) const
{
    return m_columnByKey.value(headerKey(name), -1);
}

int CsvTable::column(const QStringList& names) const
{
    for (const QString& name : names) {
        const int index = column(name);
        if (index >= 0)
            return index;
    }
    return -1;
}

int CsvTable::fieldCount(int row) const
{
    if (row < 0 || row >= rowCount())
        return 0;
    return int(m_rowFirstField[size_t(row) + 1] - m_rowFirstField[size_t(row)]);
}

QByteArrayView CsvTable::bytes(int row, int column) const
{
    if (column < 0 || column >= fieldCount(row))
        return {};
    const Field& field = m_fields[m_rowFirstField[size_t(row)] + size_t(column)];
    return QByteArrayView(m_buffer.constData() + field.offset, field.length);
}

QString CsvTable::text(int row, int column) const
{
    const QByteArrayView view = bytes(row, column);
    return QString::fromUtf8(view.data(), view.size());
}

double CsvTable::toDouble(int row, int column, bool* ok) const
{
    const QByteArrayView view = bytes(row, column);
    double value = 0.0;
    bool parsed = false;
    if (!view.isEmpty()) {
        const char* first = view.data();
        const char* last = first + view.size();
        if (*first == '+')
            ++first;
        const auto result = std::from_chars(first, last, value);
        parsed = result.ec == std::errc() && result.ptr == last;
        // "1e999" overflows: from_chars reports out of range; an infinity is the honest value.
        if (result.ec == std::errc::result_out_of_range && result.ptr == last) {
            value = view.startsWith('-') ? -std::numeric_limits<double>::infinity()
                                         : std::numeric_limits<double>::infinity();
            parsed = true;
        }
    }
    if (ok)
        *ok = parsed;
    return parsed ? value : 0.0;
}

qint64 CsvTable::toInt64(int row, int column, bool* ok) const
{
    const QByteArrayView view = bytes(row, column);
    qint64 value = 0;
    bool parsed = false;
    if (!view.isEmpty()) {
        const char* first = view.data();
        const char* last = first + view.size();
        if (*first == '+')
            ++first;
        const auto result = std::from_chars(first, last, value);
        parsed = result.ec == std::errc() && result.ptr == last;
        if (!parsed) {
            bool real = false;
            const double asDouble = toDouble(row, column, &real);
            // Some writers print counts through floats ("3.0"); only whole values in range are integers.
            if (real && std::isfinite(asDouble) && asDouble == std::floor(asDouble) && std::fabs(asDouble) < 9.0e18) {
                value = qint64(asDouble);
                parsed = true;
            }
        }
    }
    if (ok)
        *ok = parsed;
    return parsed ? value : 0;
}

std::optional<qint64> CsvTable::int64At(int row, int column) const
{
    bool ok = false;
    const qint64 value = toInt64(row, column, &ok);
    return ok ? std::optional<qint64>(value) : std::nullopt;
}

std::optional<double> CsvTable::doubleAt(int row, int column) const
{
    bool ok = false;
    const double value = toDouble(row, column, &ok);
    return ok ? std::optional<double>(value) : std::nullopt;
}

qint64 CsvTable::lineOf(int row) const
{
    if (row < 0 || row >= rowCount())
        return -1;
    return m_rowLines[size_t(row)];
}

models::Diagnostic CsvTable::cellDiagnostic(int row, int column, const QString& message,
                                            models::Severity severity) const
{
    models::Diagnostic diagnostic;
    diagnostic.severity = severity;
    diagnostic.file = m_fileName;
    diagnostic.line = lineOf(row);
    const QString name = column >= 0 && column < columnCount() ? m_header.at(column) : QString::number(column + 1);
    diagnostic.message = trCsv("column \"%1\": %2").arg(name, message);
    return diagnostic;
}

models::Diagnostic CsvTable::fileDiagnostic(const QString& message, models::Severity severity) const
{
    models::Diagnostic diagnostic;
    diagnostic.severity = severity;
    diagnostic.file = m_fileName;
    diagnostic.message = message;
    return diagnostic;
}

} // namespace runlens::importers::profiler
