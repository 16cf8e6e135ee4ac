import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";

export type Team = Schemas["TeamRead"];
export type TeamMember = Schemas["TeamMemberRead"];

const teamsKey = ["teams"] as const;
const membersKey = (teamId: number) => ["teams", teamId, "members"] as const;

export function useTeamsPage(limit: number, offset: number) {
  return useQuery({
    queryKey: [...teamsKey, "list", { limit, offset }],
    queryFn: ({ signal }) =>
      unwrap(api.GET("/api/v1/teams", { params: { query: { limit, offset } }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useSaveTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: Schemas["TeamCreate"] & { id?: number }) =>
      id === undefined
        ? unwrap(api.POST("/api/v1/teams", { body }))
        : unwrap(api.PATCH("/api/v1/teams/{team_id}", { params: { path: { team_id: id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamsKey }),
  });
}

export function useDeleteTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (teamId: number) =>
      unwrap(api.DELETE("/api/v1/teams/{team_id}", { params: { path: { team_id: teamId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamsKey }),
  });
}

export function useTeamMembers(teamId: number) {
  return useQuery({
    queryKey: membersKey(teamId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/teams/{team_id}/members", {
          params: { path: { team_id: teamId } },
          signal,
        }),
      ),
  });
}

export function useAddTeamMember(teamId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) =>
      unwrap(
        api.POST("/api/v1/teams/{team_id}/members", {
          params: { path: { team_id: teamId } },
          body: { user_id: userId },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersKey(teamId) }),
  });
}

export function useRemoveTeamMember(teamId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) =>
      unwrap(
        api.DELETE("/api/v1/teams/{team_id}/members/{user_id}", {
          params: { path: { team_id: teamId, user_id: userId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersKey(teamId) }),
  });
}
