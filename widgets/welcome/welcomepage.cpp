#include "widgets/welcome/welcomepage.h"

#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

namespace runlens::widgets::welcome {

namespace {

constexpr int kMaxContentWidth = 1040;

QLabel* heading(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    QFont font = label->font();
    font.setPointSizeF(font.pointSizeF() * 1.25);
    font.setBold(true);
    label->setFont(font);
    return label;
}

QPushButton* startButton(const QIcon& icon, const QString& text, const QString& toolTip, QWidget* parent)
{
    auto* button = new QPushButton(icon, text, parent);
    button->setToolTip(toolTip);
    button->setMinimumHeight(34);
    // Left-aligned like a list of choices, not a row of dialog buttons.
    button->setStyleSheet(QStringLiteral("QPushButton { text-align: left; padding: 4px 12px; }"));
    return button;
}

} // namespace

WelcomePage::WelcomePage(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("WelcomePage"));
    auto* content = new QWidget;
    content->setMaximumWidth(kMaxContentWidth);

    auto* logo = new QLabel(content);
    logo->setPixmap(QIcon(QStringLiteral(":/icons/runlens.svg")).pixmap(56, 56));
    auto* title = new QLabel(tr("RunLens"), content);
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 2.2);
    titleFont.setBold(true);
    title->setFont(titleFont);
    auto* tagline = new QLabel(tr("Debug and tune deep-learning training runs: summaries, graphs, tensors, profiler "
                                  "traces and memory in one place."),
                               content);
    tagline->setWordWrap(true);
    auto* titleColumn = new QVBoxLayout;
    titleColumn->addWidget(title);
    titleColumn->addWidget(tagline);
    auto* header = new QHBoxLayout;
    header->addWidget(logo, 0, Qt::AlignTop);
    header->addSpacing(12);
    header->addLayout(titleColumn, 1);

    // Left column: ways to open something, then the recent folders.
    auto* openFolder
        = startButton(QIcon::fromTheme(QStringLiteral("folder-open")), tr("Open Run Folder…"),
                      tr("Choose a training run folder: every artifact in it is found and read (Ctrl+O)"), content);
    openFolder->setObjectName(QStringLiteral("openFolderButton"));
    auto* openFile = startButton(QIcon::fromTheme(QStringLiteral("document-open")), tr("Open File…"),
                                 tr("Open one file: an event file, a trace, a graph or a tensor"), content);
    openFile->setObjectName(QStringLiteral("openFileButton"));
    auto* demo
        = startButton(QIcon(QStringLiteral(":/icons/kind-run.svg")), tr("Open the Demo Run"),
                      tr("Write a small generated example (two runs with scalars and histograms, a profiler trace, "
                         "a model graph and weight dumps) to the cache folder and open it"),
                      content);
    demo->setObjectName(QStringLiteral("demoButton"));
    connect(openFolder, &QPushButton::clicked, this, &WelcomePage::openFolderRequested);
    connect(openFile, &QPushButton::clicked, this, &WelcomePage::openFileRequested);
    connect(demo, &QPushButton::clicked, this, &WelcomePage::demoRequested);

    m_recentList = new QListWidget(content);
    m_recentList->setObjectName(QStringLiteral("recentList"));
    m_recentList->setToolTip(tr("Click a name to open it again; ✕ removes it from the list"));
    m_recentList->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(m_recentList, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit recentActivated(item->data(Qt::UserRole).toString()); });
    m_noRecent = new QLabel(tr("Folders you open are listed here."), content);
    m_noRecent->setEnabled(false);

    auto* left = new QVBoxLayout;
    left->addWidget(heading(tr("Start"), content));
    left->addWidget(openFolder);
    left->addWidget(openFile);
    left->addWidget(demo);
    left->addSpacing(18);
    left->addWidget(heading(tr("Recent"), content));
    left->addWidget(m_noRecent);
    left->addWidget(m_recentList);
    left->addStretch(1);

    // Right column: what can be opened.
    QString formats = QStringLiteral("<ul style=\"margin-left: -20px;\">");
    for (const QString& line : supportedFormats())
        formats += QStringLiteral("<li style=\"margin-bottom: 6px;\">%1</li>").arg(line);
    formats += QStringLiteral("</ul>");
    auto* formatsLabel = new QLabel(formats, content);
    formatsLabel->setObjectName(QStringLiteral("supportedFormats"));
    formatsLabel->setWordWrap(true);
    formatsLabel->setTextFormat(Qt::RichText);
    formatsLabel->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    auto* right = new QVBoxLayout;
    right->addWidget(heading(tr("Supported formats"), content));
    right->addWidget(formatsLabel, 1);

    auto* dropHint = new QLabel(tr("Tip: drop a run folder or a file anywhere on this window to open it. "
                                   "Help > Keyboard Shortcuts lists what the keys do."),
                                content);
    dropHint->setObjectName(QStringLiteral("dropHint"));
    dropHint->setWordWrap(true);
    dropHint->setEnabled(false);

    auto* columns = new QHBoxLayout;
    columns->addLayout(left, 5);
    columns->addSpacing(32);
    columns->addLayout(right, 6);

    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->addLayout(header);
    contentLayout->addSpacing(24);
    contentLayout->addLayout(columns, 1);
    contentLayout->addSpacing(12);
    contentLayout->addWidget(dropHint);

    // Centred, scrolling when the window is small.
    auto* page = new QWidget;
    auto* centring = new QHBoxLayout(page);
    centring->setContentsMargins(32, 32, 32, 32);
    centring->addStretch(1);
    centring->addWidget(content, 100);
    centring->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(page);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);

    rebuildRecentList();
}

QStringList WelcomePage::supportedFormats()
{
    return {
        tr("<b>Summaries</b>: TensorBoard event files (<code>*tfevents*</code>) from PyTorch, TensorFlow and "
           "tensorboardX; MindSpore summaries (<code>*.summary.*_MS</code>, <code>*_lineage</code>)"),
        tr("<b>IR graphs</b>: MindSpore <code>.ir</code> and anf_ir <code>.pb</code>, Graphviz <code>.dot</code>, "
           "TensorFlow GraphDef (<code>.pb</code>, <code>.pbtxt</code>), ONNX <code>.onnx</code>"),
        tr("<b>Tensor dumps</b>: <code>.npy</code>, <code>.npz</code>, <code>.safetensors</code> and MindSpore "
           "dump folders"),
        tr("<b>Profiler traces</b>: Chrome trace JSON (<code>.json</code>, <code>.json.gz</code>) from PyTorch "
           "Kineto, Paddle, TensorFlow and MindSpore"),
        tr("<b>Profiler folders</b>: MindSpore <code>profiler/</code>, <code>ASCEND_PROFILER_OUTPUT/</code> and "
           "<code>PROF_*</code> folders (operators, steps, data pipeline, cluster of ranks)"),
        tr("<b>Memory</b>: memory events in Kineto traces, PyTorch <code>export_memory_timeline</code> output and "
           "MindSpore memory usage files"),
    };
}

QString WelcomePage::describeTime(const QDateTime& time, const QDateTime& now)
{
    if (!time.isValid())
        return {};
    const QLocale locale;
    const QDateTime local = time.toLocalTime();
    // Hours and minutes whatever the locale's short format says (some include seconds).
    const QString clock = local.time().toString(QStringLiteral("HH:mm"));
    const qint64 days = local.date().daysTo(now.toLocalTime().date());
    if (days == 0)
        return tr("today %1").arg(clock);
    if (days == 1)
        return tr("yesterday %1").arg(clock);
    return locale.toString(local.date(), QLocale::ShortFormat);
}

void WelcomePage::setRecent(const QList<RecentEntry>& entries)
{
    m_recent = entries;
    rebuildRecentList();
}

void WelcomePage::removeRecent(const QString& path)
{
    m_recent.removeIf([&path](const RecentEntry& entry) { return entry.path == path; });
    rebuildRecentList();
    emit recentRemoved(path);
}

void WelcomePage::rebuildRecentList()
{
    m_recentList->clear();
    const QDateTime now = QDateTime::currentDateTime();
    for (const RecentEntry& entry : std::as_const(m_recent)) {
        const QFileInfo info(entry.path);
        const QString name = info.fileName().isEmpty() ? entry.path : info.fileName();
        QString details = QDir::toNativeSeparators(info.absolutePath());
        const QString when = describeTime(entry.lastOpened, now);
        if (!when.isEmpty())
            details += QStringLiteral(" · ") + tr("opened %1").arg(when);
        const bool exists = info.exists();
        if (!exists)
            details += QStringLiteral(" · ") + tr("no longer there");

        auto* item = new QListWidgetItem(m_recentList);
        item->setData(Qt::UserRole, entry.path);
        // The text is what accessibility tools read; the row widget below is what is seen.
        item->setText(name + QLatin1Char('\n') + details);
        item->setToolTip(QDir::toNativeSeparators(entry.path));

        auto* row = new QWidget;
        auto* link = new QLabel(QStringLiteral("<a href=\"open\">%1</a><br><small>%2</small>")
                                    .arg(name.toHtmlEscaped(), details.toHtmlEscaped()),
                                row);
        link->setObjectName(QStringLiteral("recentLink"));
        link->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
        link->setToolTip(tr("Open %1").arg(QDir::toNativeSeparators(entry.path)));
        link->setEnabled(exists);
        connect(link, &QLabel::linkActivated, this, [this, path = entry.path]() { emit recentActivated(path); });
        auto* remove = new QToolButton(row);
        remove->setObjectName(QStringLiteral("removeRecent"));
        remove->setText(QStringLiteral("✕"));
        remove->setAutoRaise(true);
        remove->setToolTip(
            tr("Remove %1 from the list (the folder itself is not touched)").arg(QDir::toNativeSeparators(entry.path)));
        // Queued: the button is deleted with its row when the list is rebuilt.
        connect(
            remove, &QToolButton::clicked, this, [this, path = entry.path]() { removeRecent(path); },
            Qt::QueuedConnection);
        auto* rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(6, 3, 3, 3);
        rowLayout->addWidget(link, 1);
        rowLayout->addWidget(remove, 0, Qt::AlignTop);
        item->setSizeHint(row->sizeHint());
        // The item's own text would show through the row widget.
        item->setForeground(Qt::transparent);
        m_recentList->setItemWidget(item, row);
    }
    // As tall as its rows (the page scrolls when they are many).
    int rows = 0;
    for (int i = 0; i < m_recentList->count(); ++i)
        rows += m_recentList->item(i)->sizeHint().height();
    m_recentList->setFixedHeight(rows + 2 * m_recentList->frameWidth() + 4);
    m_recentList->setVisible(!m_recent.isEmpty());
    m_noRecent->setVisible(m_recent.isEmpty());
}

} // namespace runlens::widgets::welcome
