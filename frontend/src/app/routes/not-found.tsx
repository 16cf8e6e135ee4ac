import { Anchor, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { paths } from "@/lib/paths";

export function Component() {
  return (
    <Stack>
      <Title order={2}>Page not found</Title>
      <Text>
        Nothing lives at this address.{" "}
        <Anchor component={Link} to={paths.projects()}>
          Back to projects
        </Anchor>
      </Text>
    </Stack>
  );
}
