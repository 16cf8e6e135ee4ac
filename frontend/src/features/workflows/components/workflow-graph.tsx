import { Box, useMantineTheme } from "@mantine/core";
import { BOX, type GraphEdge, layout } from "@/features/workflows/lib/graph";
import { STATUS_COLORS } from "@/features/workflows/components/workflow-status-badge";
import type { ShownStatus } from "@/features/workflows/lib/node-run";

export interface GraphBox {
  key: string;
  /** the second line: the template's name, or the approval's question */
  label: string;
  status?: ShownStatus;
}

const EDGE_COLORS: Record<GraphEdge["on"], string> = {
  success: "green",
  failure: "red",
  always: "gray",
};

function clip(text: string, max = 20): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * A read-only drawing of the graph: nodes in layers (a node below its deepest parent), edges
 * coloured by when they fire (green on success, red on failure, grey always); with statuses,
 * each node is tinted by its own.
 */
export function WorkflowGraph({ boxes, edges }: { boxes: GraphBox[]; edges: GraphEdge[] }) {
  const theme = useMantineTheme();
  const keys = boxes.map((b) => b.key);
  const placed = layout(keys, edges);
  const color = (name: string, shade = 6) => theme.colors[name]?.[shade] ?? name;
  if (boxes.length === 0) return null;
  return (
    <Box style={{ overflowX: "auto" }}>
      <svg
        role="img"
        aria-label={`Workflow graph of ${boxes.length} nodes`}
        viewBox={`0 0 ${placed.width} ${placed.height}`}
        width={placed.width}
        style={{ maxWidth: "100%", height: "auto", display: "block", margin: "0 auto" }}
      >
        <defs>
          {Object.entries(EDGE_COLORS).map(([on, name]) => (
            <marker
              key={on}
              id={`arrow-${on}`}
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerWidth="7"
              markerHeight="7"
              orient="auto-start-reverse"
            >
              <path d="M 0 0 L 10 5 L 0 10 z" fill={color(name)} />
            </marker>
          ))}
        </defs>
        {edges.map((edge) => {
          const from = placed.nodes.get(edge.from);
          const to = placed.nodes.get(edge.to);
          if (!from || !to || edge.from === edge.to) return null;
          const x1 = from.x + BOX.width / 2;
          const y1 = from.y + BOX.height;
          const x2 = to.x + BOX.width / 2;
          const y2 = to.y;
          const mid = (y1 + y2) / 2;
          return (
            <path
              key={`${edge.from}->${edge.to}`}
              d={`M ${x1} ${y1} C ${x1} ${mid}, ${x2} ${mid}, ${x2} ${y2}`}
              fill="none"
              stroke={color(EDGE_COLORS[edge.on])}
              strokeWidth={1.5}
              strokeDasharray={edge.on === "always" ? "4 3" : undefined}
              markerEnd={`url(#arrow-${edge.on})`}
            >
              <title>{`${edge.from} → ${edge.to} on ${edge.on}`}</title>
            </path>
          );
        })}
        {boxes.map((box) => {
          const at = placed.nodes.get(box.key);
          if (!at) return null;
          const tint = box.status ? STATUS_COLORS[box.status] : "blue";
          return (
            <g key={box.key} data-node={box.key} data-status={box.status}>
              <title>{`${box.key}: ${box.label}${box.status ? ` (${box.status})` : ""}`}</title>
              <rect
                x={at.x}
                y={at.y}
                width={BOX.width}
                height={BOX.height}
                rx={6}
                style={{ fill: `var(--mantine-color-${tint}-light)` }}
                stroke={color(tint)}
                strokeWidth={
                  box.status === "running" || box.status === "waiting" || box.status === "queued"
                    ? 2.5
                    : 1.2
                }
              />
              <text
                x={at.x + BOX.width / 2}
                y={at.y + 16}
                textAnchor="middle"
                fontSize={12}
                fontWeight={600}
                style={{ fill: "var(--mantine-color-text)" }}
              >
                {clip(box.key)}
              </text>
              <text
                x={at.x + BOX.width / 2}
                y={at.y + 31}
                textAnchor="middle"
                fontSize={11}
                style={{ fill: "var(--mantine-color-dimmed)" }}
              >
                {clip(box.label + (box.status ? ` · ${box.status}` : ""), 24)}
              </text>
            </g>
          );
        })}
      </svg>
    </Box>
  );
}
