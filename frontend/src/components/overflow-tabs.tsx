import { Button, Menu, Tabs } from "@mantine/core";
import { useLayoutEffect, useRef, useState } from "react";
import { CheckIcon, ChevronDownIcon } from "@/components/icons";
import { tabsInRow } from "@/lib/tab-overflow";
import classes from "@/components/overflow-tabs.module.css";

interface TabItem {
  value: string;
  label: string;
}

interface OverflowTabsProps {
  /** the tab list's accessible name */
  label: string;
  tabs: readonly TabItem[];
  value: string | null;
  onChange: (value: string) => void;
}

/**
 * A row of tabs that never hides one: the tabs that fit in the width, then a "More" menu with
 * the others (measured again whenever the row or a tab changes size: a phone turned, a font
 * loaded). The open section, when in More, is named on its button.
 */
export function OverflowTabs({ label, tabs, value, onChange }: OverflowTabsProps) {
  const rowRef = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(tabs.length);
  // measured again when the tabs change, not at every render of the page
  const tabsKey = tabs.map((tab) => tab.label).join("\n");

  useLayoutEffect(() => {
    const row = rowRef.current;
    if (!row) return;
    const tabElements = [...row.querySelectorAll<HTMLElement>("[data-tab-item]")];
    const more = row.querySelector<HTMLElement>("[data-more]");
    const measure = () => {
      const widths = tabElements.map((element) => element.getBoundingClientRect().width);
      const moreWidth = more?.getBoundingClientRect().width ?? 0;
      setShown(tabsInRow(widths, row.getBoundingClientRect().width, moreWidth));
    };
    // called at once for each element observed, before the first paint
    const observer = new ResizeObserver(measure);
    for (const element of [row, ...tabElements, ...(more ? [more] : [])]) {
      observer.observe(element);
    }
    return () => observer.disconnect();
  }, [tabsKey]);

  const folded = tabs.slice(shown);
  const openFolded = folded.find((tab) => tab.value === value);
  return (
    <Tabs value={value} onChange={(next) => next && onChange(next)} keepMounted={false}>
      <div ref={rowRef} className={classes.row}>
        <Tabs.List aria-label={label} className={classes.list}>
          {tabs.map((tab, index) => {
            const inMore = index >= shown;
            return (
              <Tabs.Tab
                key={tab.value}
                value={tab.value}
                data-tab-item
                className={inMore ? classes.folded : undefined}
                disabled={inMore}
                aria-hidden={inMore || undefined}
                tabIndex={inMore ? -1 : undefined}
              >
                {tab.label}
              </Tabs.Tab>
            );
          })}
        </Tabs.List>
        <div className={classes.more} data-more data-unused={folded.length === 0 || undefined}>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button
                variant={openFolded ? "light" : "subtle"}
                size="sm"
                radius={0}
                rightSection={<ChevronDownIcon />}
                aria-label={
                  openFolded ? `More sections (${openFolded.label} is open)` : "More sections"
                }
                tabIndex={folded.length === 0 ? -1 : undefined}
              >
                {openFolded ? openFolded.label : "More"}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {folded.map((tab) => (
                <Menu.Item
                  key={tab.value}
                  onClick={() => onChange(tab.value)}
                  aria-current={tab.value === value ? "page" : undefined}
                  rightSection={tab.value === value ? <CheckIcon /> : null}
                >
                  {tab.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        </div>
      </div>
    </Tabs>
  );
}
