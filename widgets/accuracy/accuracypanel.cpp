#include "widgets/accuracy/accuracypanel.h"

#include "models/core/workerpool.h"
#include "widgets/accuracy/accuracygraph.h"
#include "widgets/accuracy/accuracytablemodel.h"
#include "widgets/common/charticons.h"
#include "widgets/common/chartpalette.h"
#include "widgets/common/panelheader.h"
#include "widgets/common/textfilterproxy.h"
#include "widgets/common/theme.h"

#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMutex>
#include <QPointer>
#include <QProgressBar>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace runlens::widgets::accuracy {

using models::accuracy::CompareRow;
using models::accuracy::Verdict;

namespace {

/// Rows shown per batch: enough to keep the table from relaying out per row, few enough to see them arrive.
constexpr qsizetype kBatchRows = 64;

} // namespace

/// One comparison: what the worker hands to the GUI. The worker posts to `receiver` only under the mutex,
/// and the panel clears it under the mutex when it goes, so no event is posted to a deleted panel.
struct AccuracyPanel::Job
{
    QMutex mutex;
    QObject* receiver = nullptr;
    QList<CompareRow> pending;
    bool flushPosted = false;
    std::atomic_bool cancel = false;
    std::atomic_int progress = 0;
};

AccuracyPanel::AccuracyPanel(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("accuracyPanel"));
    buildUi();
    updateHeader();
}

AccuracyPanel::~AccuracyPanel()
{
    if (m_job) {
        m_job->cancel = true;
        QMutexLocker lock(&m_job->mutex);
        m_job->receiver = nullptr;
    }
}

void AccuracyPanel::buildUi()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto* header = new PanelHeader(this);
    m_summary = header->addSummary(QStringLiteral("accuracySummary"));
    m_filterEdit = header->addFilter(QStringLiteral("accuracyFilter"), tr("Filter by name, kind or verdict"));
    m_progress = new QProgressBar(header);
    m_progress->setObjectName(QStringLiteral("accuracyProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(120);
    m_progress->setTextVisible(false);
    m_progress->hide();
    header->addWidget(m_progress);
    m_cancelButton = new QToolButton(header);
    m_cancelButton->setObjectName(QStringLiteral("accuracyCancel"));
    m_cancelButton->setText(tr("Cancel"));
    m_cancelButton->setAutoRaise(true);
    m_cancelButton->setToolTip(tr("Stop the comparison; the rows compared so far stay"));
    m_cancelButton->hide();
    header->addWidget(m_cancelButton);
    m_exportButton = header->addExportButton(QStringLiteral("accuracyExport"), QStringLiteral("chart-export-table"));
    m_exportButton->setToolTip(tr("Write the comparison as CSV, Markdown or JSON (as runlens compare does)"));
    QMenu* menu = header->exportMenu();
    connect(menu->addAction(tr("Export CSV…")), &QAction::triggered, this,
            [this] { requestExport(ExportFormat::Csv); });
    connect(menu->addAction(tr("Export Markdown…")), &QAction::triggered, this,
            [this] { requestExport(ExportFormat::Markdown); });
    connect(menu->addAction(tr("Export JSON…")), &QAction::triggered, this,
            [this] { requestExport(ExportFormat::Json); });
    header->enableOverflowMenu();
    layout->addWidget(header);

    m_headline = new QLabel(this);
    m_headline->setObjectName(QStringLiteral("accuracyHeadline"));
    m_headline->setTextFormat(Qt::PlainText);
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_headline->setContentsMargins(PanelHeader::kMarginX, PanelHeader::kMarginY, PanelHeader::kMarginX,
                                   PanelHeader::kMarginY);
    QFont bold = m_headline->font();
    bold.setBold(true);
    m_headline->setFont(bold);
    layout->addWidget(m_headline);

    m_model = new AccuracyTableModel(this);
    // The filter matches the names of both sides, the kind and the verdict, not the numbers.
    auto* proxy = new TextFilterProxy(
        [](const QAbstractItemModel* source, int sourceRow) {
            const auto* model = static_cast<const AccuracyTableModel*>(source);
            const CompareRow& row = model->rows().at(sourceRow);
            return QStringList { row.name,
                                 row.benchName,
                                 row.targetName,
                                 model->index(sourceRow, AccuracyTableModel::Kind).data().toString(),
                                 model->index(sourceRow, AccuracyTableModel::VerdictColumn).data().toString(),
                                 model->index(sourceRow, AccuracyTableModel::Origin).data().toString() };
        },
        this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(AccuracyTableModel::SortRole);
    proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_proxy = proxy;

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("accuracyTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(AccuracyTableModel::Name, Qt::AscendingOrder); // execution order
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setColumnWidth(AccuracyTableModel::Name, m_table->fontMetrics().horizontalAdvance(QLatin1Char('M')) * 24);
    m_table->setFrameShape(QFrame::NoFrame);
    // The table and the bench's graph side by side; the graph shows once a comparison gives one.
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(QStringLiteral("accuracySplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_table);
    m_graph = new AccuracyGraph(m_splitter);
    m_graph->hide();
    m_splitter->addWidget(m_graph);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    layout->addWidget(m_splitter, 1);

    m_details = new QLabel(this);
    m_details->setObjectName(QStringLiteral("accuracyDetails"));
    m_details->setTextFormat(Qt::PlainText);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setContentsMargins(PanelHeader::kMarginX, PanelHeader::kMarginY, PanelHeader::kMarginX,
                                  PanelHeader::kMarginY);
    m_details->hide();
    layout->addWidget(m_details);

    connect(m_filterEdit, &QLineEdit::textChanged, this, &AccuracyPanel::setFilterText);
    connect(m_cancelButton, &QToolButton::clicked, this, &AccuracyPanel::cancel);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { onCurrentChanged(current); });
    connect(m_table, &QTableView::activated, this, &AccuracyPanel::onActivated);
    connect(m_graph, &AccuracyGraph::rowRequested, this, [this](int row) {
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, AccuracyTableModel::Name));
        if (!index.isValid())
            return; // filtered out
        m_table->setCurrentIndex(index);
        m_table->scrollTo(index);
    });
}

int AccuracyPanel::currentRow() const
{
    const QModelIndex index = m_table->currentIndex();
    return index.isValid() ? index.data(AccuracyTableModel::RowIndexRole).toInt() : -1;
}

void AccuracyPanel::compare(const CompareRequest& request)
{
    cancel();
    m_request = request;
    m_result.reset();
    m_error.clear();
    m_cancelled = false;
    m_benchOps.clear();
    m_benchTensors.clear();
    m_targetTensors.clear();
    m_details->clear();
    m_details->hide();
    m_model->clear();
    m_graph->clear();
    m_graph->hide();
    if (!m_comparer) {
        m_error = tr("No comparison is available here.");
        updateHeader();
        emit comparisonFinished();
        return;
    }

    auto job = std::make_shared<Job>();
    job->receiver = this;
    m_job = job;
    m_running = true;
    m_progress->setValue(0);
    updateHeader();
    emit comparisonStarted();

    // Each batch and the end are posted as queued calls: rows reach the model on the GUI thread in order.
    const auto post = [job](auto&& call) {
        QMutexLocker lock(&job->mutex);
        if (job->receiver)
            QMetaObject::invokeMethod(job->receiver, std::forward<decltype(call)>(call), Qt::QueuedConnection);
    };
    const QPointer<AccuracyPanel> self(this);
    const Comparer comparer = m_comparer;
    // The job reports through `post`; its future is not needed.
    (void)QtConcurrent::run(models::workerPool(), [job, request, comparer, post, self]() {
        importers::ImportControl control;
        control.cancel = &job->cancel;
        control.progress = [job](int permille) { job->progress = permille; };
        const RowCallback rowReady = [job, post, self](const CompareRow& row) {
            bool postFlush = false;
            {
                QMutexLocker lock(&job->mutex);
                job->pending << row;
                if (!job->flushPosted && job->pending.size() >= 1) {
                    job->flushPosted = true;
                    postFlush = true;
                }
            }
            if (postFlush)
                post([job, self] {
                    if (self)
                        self->flushRows(job);
                });
        };
        CompareOutcome outcome;
        try {
            outcome = comparer(request, control, rowReady);
        } catch (const std::exception& e) {
            outcome.error = QString::fromUtf8(e.what());
        }
        post([job, self, outcome = std::move(outcome)]() mutable {
            if (self)
                self->finish(job, std::move(outcome));
        });
    });
}

void AccuracyPanel::cancel()
{
    if (!m_job)
        return;
    m_job->cancel = true;
    {
        QMutexLocker lock(&m_job->mutex);
        m_job->receiver = nullptr;
    }
    m_job.reset();
    if (m_running) {
        m_running = false;
        m_cancelled = true;
        updateHeader();
        emit comparisonFinished();
    }
}

void AccuracyPanel::flushRows(const std::shared_ptr<Job>& job)
{
    if (job != m_job)
        return;
    QList<CompareRow> rows;
    {
        QMutexLocker lock(&job->mutex);
        rows.swap(job->pending);
        job->flushPosted = false;
    }
    // Large batches go in slices so the view keeps painting between them.
    for (qsizetype i = 0; i < rows.size(); i += kBatchRows)
        m_model->appendRows(rows.mid(i, kBatchRows));
    m_progress->setValue(job->progress.load());
    updateHeader();
}

void AccuracyPanel::finish(const std::shared_ptr<Job>& job, CompareOutcome outcome)
{
    if (job != m_job)
        return;
    flushRows(job);
    m_job.reset();
    m_running = false;
    m_benchOps = std::move(outcome.benchOps);
    m_benchTensors = std::move(outcome.benchTensors);
    m_targetTensors = std::move(outcome.targetTensors);
    if (outcome.result) {
        m_result = std::move(outcome.result);
        m_model->setRows(m_result->rows);
        m_benchGraph = outcome.benchGraph;
        m_benchNodes = outcome.benchNodes;
        if (outcome.benchGraph) {
            m_graph->setComparison(outcome.benchGraph, m_result->rows, outcome.benchNodes);
            m_graph->show();
        }
        // The row the headline names is where the user looks first.
        if (m_result->firstDivergence && m_result->firstDivergence->row >= 0) {
            const QModelIndex index
                = m_proxy->mapFromSource(m_model->index(m_result->firstDivergence->row, AccuracyTableModel::Name));
            if (index.isValid()) {
                m_table->setCurrentIndex(index);
                m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
            }
        }
    } else if (outcome.error.isEmpty()) {
        m_cancelled = true;
    } else {
        m_error = outcome.error;
    }
    updateHeader();
    emit comparisonFinished();
}

QString AccuracyPanel::headline() const
{
    return m_headline->text();
}

QString AccuracyPanel::summaryText() const
{
    return m_summary->text();
}

models::accuracy::Verdict AccuracyPanel::divergentOpVerdict() const
{
    // The op where the numbers part is as bad as its worst row: an output that only warns while the op's
    // weight is an error is an error introduced there.
    if (!m_result || !m_result->firstDivergence)
        return models::accuracy::Verdict::None;
    const int first = m_result->firstDivergence->row;
    if (first < 0 || first >= int(m_result->rows.size()))
        return models::accuracy::Verdict::Warning;
    const models::accuracy::CompareRow& divergent = m_result->rows.at(first);
    models::accuracy::Verdict worst = divergent.verdict;
    if (divergent.op.isEmpty())
        return worst;
    for (const models::accuracy::CompareRow& row : m_result->rows) {
        if (row.op == divergent.op && row.group == divergent.group)
            worst = models::accuracy::worse(worst, row.verdict);
    }
    return worst;
}

void AccuracyPanel::updateHeader()
{
    m_progress->setVisible(m_running);
    m_cancelButton->setVisible(m_running);
    m_exportButton->setEnabled(m_result.has_value());

    QString summary;
    QString headline;
    if (m_running) {
        summary = tr("Comparing %1 with %2… %n row(s)", nullptr, m_model->rowCount())
                      .arg(QDir::toNativeSeparators(m_request.bench), QDir::toNativeSeparators(m_request.target));
    } else if (!m_error.isEmpty()) {
        headline = m_error;
    } else if (m_cancelled) {
        summary = tr("Cancelled after %n row(s)", nullptr, m_model->rowCount());
    } else if (m_result) {
        const models::accuracy::CompareSummary s = m_result->summary();
        summary = tr("%1 matched · %2 pass · %3 warning · %4 error · %5 unmatched")
                      .arg(s.matched)
                      .arg(s.pass)
                      .arg(s.warning)
                      .arg(s.error)
                      .arg(s.unmatchedBench + s.unmatchedTarget);
        if (const auto& first = m_result->firstDivergence) {
            // The reason is a stable English id of the result (JSON, CLI); the panel says it in the UI language.
            QString reason = first->reason;
            if (reason == QLatin1String("outputs fail while inputs pass"))
                reason = tr("outputs fail while inputs pass");
            else if (reason == QLatin1String("a parameter differs"))
                reason = tr("a parameter differs");
            else if (reason == QLatin1String("inputs already differ"))
                reason = tr("inputs already differ");
            const bool error = divergentOpVerdict() == models::accuracy::Verdict::Error;
            QString op = first->op.isEmpty() ? first->name : first->op;
            // Across several ranks or steps, say which one.
            if (!first->op.isEmpty() && first->row >= 0 && first->row < int(m_result->rows.size())
                && !m_result->rows.at(first->row).group.isEmpty())
                op = m_result->rows.at(first->row).group + QLatin1Char('/') + op;
            headline = error ? tr("Error introduced at %1: %2").arg(op, reason)
                             : tr("The numbers begin to part at %1 (a warning, not an error): %2").arg(op, reason);
        } else if (s.matched > 0 && s.unmatchedBench + s.unmatchedTarget > s.matched) {
            // Most rows found no partner: "no divergence" alone would overstate what was compared.
            headline = tr("No divergence among the %n matched row(s); %1 rows are unmatched: a mapping file "
                          "(File > Compare Dumps…) pairs renamed modules and APIs.",
                          nullptr, s.matched)
                           .arg(s.unmatchedBench + s.unmatchedTarget);
        } else if (s.matched > 0) {
            headline = tr("No divergence: every matched row passes.");
        } else {
            headline = tr("Nothing matched: the two dumps share no rows.");
        }
    } else {
        summary = tr("Compare two dumps: File > Compare Dumps…, or two runs in the Run Browser");
    }
    m_summary->setText(summary);
    m_summary->setToolTip(
        m_result ? tr("Bench: %1\nTarget: %2")
                       .arg(QDir::toNativeSeparators(m_result->bench), QDir::toNativeSeparators(m_result->target))
                 : QString());
    m_headline->setText(headline);
    m_headline->setVisible(!headline.isEmpty());
    // Red says error, amber a warning; a clean result reads in the palette's text colour.
    Verdict severity = Verdict::Pass;
    if (!m_error.isEmpty())
        severity = Verdict::Error;
    else if (m_result && m_result->firstDivergence)
        severity = divergentOpVerdict() == Verdict::Error ? Verdict::Error : Verdict::Warning;
    QPalette palette = this->palette();
    if (severity == Verdict::Error)
        palette.setColor(QPalette::WindowText, alertColor());
    else if (severity == Verdict::Warning)
        palette.setColor(QPalette::WindowText, isDark(palette) ? QColor(0xf0, 0xb0, 0x40) : QColor(0xc0, 0x7a, 0x00));
    m_headline->setPalette(palette);
}

QColor AccuracyPanel::headlineColor() const
{
    return m_headline->palette().color(QPalette::WindowText);
}

void AccuracyPanel::setFilterText(const QString& text)
{
    if (m_filterEdit->text() != text)
        m_filterEdit->setText(text);
    static_cast<TextFilterProxy*>(m_proxy)->setText(text);
}

QString AccuracyPanel::filterText() const
{
    return m_filterEdit->text();
}

int AccuracyPanel::visibleRowCount() const
{
    return m_proxy->rowCount();
}

bool AccuracyPanel::selectRow(const QString& name)
{
    const QList<CompareRow>& rows = m_model->rows();
    const auto row = std::find_if(rows.cbegin(), rows.cend(), [&name](const CompareRow& r) { return r.name == name; });
    if (row == rows.cend())
        return false;
    const QModelIndex source = m_model->index(int(row - rows.cbegin()), AccuracyTableModel::Name);
    if (!m_proxy->mapFromSource(source).isValid())
        setFilterText({});
    const QModelIndex index = m_proxy->mapFromSource(source);
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
    return index.isValid();
}

void AccuracyPanel::onCurrentChanged(const QModelIndex& proxyIndex)
{
    if (!proxyIndex.isValid())
        return;
    const int row = proxyIndex.data(AccuracyTableModel::RowIndexRole).toInt();
    m_graph->showRow(row);
    if (m_benchOps.isEmpty())
        return;
    const CompareRow& r = m_model->rows().at(row);
    const QString op = m_benchOps.value(r.benchName);
    if (!op.isEmpty())
        emit nodeSelected(op);
}

void AccuracyPanel::onActivated(const QModelIndex& proxyIndex)
{
    if (!proxyIndex.isValid())
        return;
    const CompareRow& r = m_model->rows().at(proxyIndex.data(AccuracyTableModel::RowIndexRole).toInt());
    requestStack(r);
    const auto bench = m_benchTensors.value(r.benchName);
    const auto target = m_targetTensors.value(r.targetName);
    if (bench && target) {
        emit tensorsRequested(bench, tr("bench %1").arg(r.benchName), target, tr("target %1").arg(r.targetName));
        return;
    }
    // Statistics (and md5) rows have no tensors to open: their numbers go below the table.
    QString text
        = m_model->index(proxyIndex.data(AccuracyTableModel::RowIndexRole).toInt(), 0).data(Qt::ToolTipRole).toString();
    if (!r.benchMd5.isEmpty() || !r.targetMd5.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral("\n"))
            + tr("md5: bench %1, target %2").arg(r.benchMd5, r.targetMd5);
    m_details->setText(text.isEmpty() ? tr("%1: no values to show").arg(r.name) : r.name + QLatin1Char('\n') + text);
    m_details->show();
}

void AccuracyPanel::requestStack(const CompareRow& row)
{
    // The bench op's call stack (msprobe's stack.json): the innermost frame of the user's code, past the
    // frames of the framework and the libraries, is where to look first.
    if (!m_benchGraph)
        return;
    const int node = m_benchGraph->find(m_benchNodes.value(row.benchName).toStdString());
    if (node < 0)
        return;
    const std::vector<models::graph::SourceLocation>& frames = m_benchGraph->nodes[size_t(node)].sources;
    if (frames.empty())
        return;
    const auto library = [](const std::string& file) {
        for (const char* part : { "site-packages/", "dist-packages/", "/lib/python", "<frozen" }) {
            if (file.find(part) != std::string::npos)
                return true;
        }
        return false;
    };
    const auto user = std::find_if(frames.begin(), frames.end(),
                                   [&](const models::graph::SourceLocation& frame) { return !library(frame.file); });
    const models::graph::SourceLocation& frame = user != frames.end() ? *user : frames.front();
    emit sourceRequested(QString::fromStdString(frame.file), frame.line);
}

QByteArray AccuracyPanel::exportText(ExportFormat format) const
{
    if (!m_result)
        return {};
    switch (format) {
    case ExportFormat::Csv:
        return models::accuracy::compareResultToCsv(*m_result).toUtf8();
    case ExportFormat::Markdown:
        return models::accuracy::compareResultToMarkdown(*m_result).toUtf8();
    case ExportFormat::Json:
        return QJsonDocument(models::accuracy::compareResultToJson(*m_result)).toJson(QJsonDocument::Indented);
    }
    return {};
}

bool AccuracyPanel::exportTo(ExportFormat format, const QString& fileName, QString* errorMessage) const
{
    QSaveFile file(fileName);
    if (!m_result || !file.open(QIODevice::WriteOnly) || file.write(exportText(format)) < 0 || !file.commit()) {
        if (errorMessage)
            *errorMessage = m_result
                ? tr("Could not write %1: %2").arg(QDir::toNativeSeparators(fileName), file.errorString())
                : tr("There is no finished comparison to export.");
        return false;
    }
    return true;
}

void AccuracyPanel::requestExport(ExportFormat format)
{
    if (!m_result)
        return;
    const QString extension = format == ExportFormat::Csv ? QStringLiteral("csv")
        : format == ExportFormat::Markdown                ? QStringLiteral("md")
                                                          : QStringLiteral("json");
    const QString filter = format == ExportFormat::Csv ? tr("CSV files (*.csv)")
        : format == ExportFormat::Markdown             ? tr("Markdown files (*.md)")
                                                       : tr("JSON files (*.json)");
    QString directory = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (directory.isEmpty())
        directory = QDir::homePath();
    const QString suggested = QDir(directory).filePath(QStringLiteral("accuracy-compare.%1").arg(extension));
    const QString fileName = m_fileNameProvider ? m_fileNameProvider(suggested, filter) : suggested;
    if (fileName.isEmpty())
        return;
    QString error;
    if (exportTo(format, fileName, &error))
        emit exported(fileName);
    else
        emit exportFailed(error);
}

} // namespace runlens::widgets::accuracy
