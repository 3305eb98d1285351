#include "widgets/common/theme.h"

#include "widgets/common/chartpalette.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

namespace runlens::widgets {

namespace {

struct StartState
{
    bool captured = false;
    QString styleName;
    QPalette palette;
};

StartState& startState()
{
    static StartState state;
    return state;
}

Theme& appliedTheme()
{
    static Theme theme = Theme::System;
    return theme;
}

void captureStartState()
{
    StartState& state = startState();
    if (state.captured || !qApp)
        return;
    state.captured = true;
    state.styleName = QApplication::style() ? QApplication::style()->name() : QString();
    state.palette = QApplication::palette();
}

} // namespace

QString themeKey(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

Theme themeFromKey(const QString& key)
{
    if (key == QLatin1String("light"))
        return Theme::Light;
    if (key == QLatin1String("dark"))
        return Theme::Dark;
    return Theme::System;
}

QPalette darkPalette()
{
    const QColor window(45, 47, 51);
    const QColor base(32, 34, 37);
    const QColor alternate(40, 42, 46);
    const QColor text(222, 224, 228);
    const QColor disabledText(128, 131, 137);
    const QColor button(55, 58, 63);
    const QColor highlight(64, 120, 200);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, alternate);
    p.setColor(QPalette::ToolTipBase, QColor(60, 63, 68));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabledText);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(255, 110, 110));
    p.setColor(QPalette::Light, QColor(75, 78, 84));
    p.setColor(QPalette::Midlight, QColor(62, 65, 70));
    p.setColor(QPalette::Mid, QColor(80, 83, 89));
    p.setColor(QPalette::Dark, QColor(25, 26, 28));
    p.setColor(QPalette::Shadow, QColor(12, 12, 14));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(110, 170, 250));
    p.setColor(QPalette::LinkVisited, QColor(170, 140, 240));
    for (const auto role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(70, 73, 78));
    p.setColor(QPalette::Disabled, QPalette::HighlightedText, disabledText);
    return p;
}

QPalette lightPalette()
{
    QPalette p(QColor(239, 239, 239), QColor(246, 246, 246));
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::AlternateBase, QColor(245, 245, 245));
    p.setColor(QPalette::Text, QColor(20, 20, 20));
    p.setColor(QPalette::WindowText, QColor(20, 20, 20));
    p.setColor(QPalette::ButtonText, QColor(20, 20, 20));
    p.setColor(QPalette::Highlight, QColor(48, 140, 198));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(255, 255, 220));
    p.setColor(QPalette::ToolTipText, Qt::black);
    return p;
}

void applyTheme(Theme theme)
{
    captureStartState();
    appliedTheme() = theme;
    if (!qApp)
        return;
    const StartState& start = startState();
    if (theme == Theme::System) {
        if (!start.styleName.isEmpty())
            QApplication::setStyle(QStyleFactory::create(start.styleName));
        QApplication::setPalette(start.palette);
        return;
    }
    // Fusion draws every control from the palette; native styles would ignore parts of a dark one.
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(theme == Theme::Dark ? darkPalette() : lightPalette());
}

Theme currentTheme()
{
    return appliedTheme();
}

bool isDark(const QPalette& palette)
{
    return palette.color(QPalette::Base).lightnessF() < palette.color(QPalette::Text).lightnessF();
}

ChartTheme chartTheme(const QPalette& palette)
{
    ChartTheme theme;
    theme.background = palette.color(QPalette::Base);
    theme.text = palette.color(QPalette::Text);
    theme.muted = blendColors(theme.text, theme.background, 0.4);
    theme.axisLine = blendColors(theme.text, theme.background, 0.72);
    theme.gridLine = blendColors(theme.text, theme.background, isDark(palette) ? 0.84 : 0.9);
    theme.panel = blendColors(theme.background, theme.text, 0.06);
    return theme;
}

} // namespace runlens::widgets
