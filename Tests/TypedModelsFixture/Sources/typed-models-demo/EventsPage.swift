// A page of GitHub events as `GET /users/{user}/events` returns it, with invented accounts,
// repositories and commits: two pushes, a star, an issue opened in an organization's
// repository and a fork, which this package has no subclass for.
let eventsPage = #"""
    [
      {
        "id": "41022367118",
        "type": "PushEvent",
        "actor": {
          "id": 5811204, "login": "maren-holt", "display_login": "maren-holt", "gravatar_id": "",
          "url": "https://api.github.com/users/maren-holt",
          "avatar_url": "https://avatars.githubusercontent.com/u/5811204?"
        },
        "repo": {"id": 702215563, "name": "maren-holt/tidewatch", "url": "https://api.github.com/repos/maren-holt/tidewatch"},
        "payload": {
          "repository_id": 702215563, "push_id": 19830417265, "size": 2, "distinct_size": 2,
          "ref": "refs/heads/main",
          "head": "9c41f0d2b7a35e8816d0c4fa27be19d3a6e05b71",
          "before": "3be8a0c6f1d7429e50b3ac98d2f6714e0c5b2a94",
          "commits": [
            {
              "sha": "5f02c9e1a8b4d63f7e10a2c5b98d4e6f3a1c7b20",
              "author": {"email": "maren@example.org", "name": "Maren Holt"},
              "message": "Read tide tables in local time",
              "distinct": true,
              "url": "https://api.github.com/repos/maren-holt/tidewatch/commits/5f02c9e1a8b4d63f7e10a2c5b98d4e6f3a1c7b20"
            },
            {
              "sha": "9c41f0d2b7a35e8816d0c4fa27be19d3a6e05b71",
              "author": {"email": "maren@example.org", "name": "Maren Holt"},
              "message": "Warn when a station has no readings for a day\n\nThe chart drew a flat line instead.",
              "distinct": true,
              "url": "https://api.github.com/repos/maren-holt/tidewatch/commits/9c41f0d2b7a35e8816d0c4fa27be19d3a6e05b71"
            }
          ]
        },
        "public": true,
        "created_at": "2025-03-14T08:21:45Z"
      },
      {
        "id": "41022198530",
        "type": "WatchEvent",
        "actor": {
          "id": 5811204, "login": "maren-holt", "display_login": "maren-holt", "gravatar_id": "",
          "url": "https://api.github.com/users/maren-holt",
          "avatar_url": "https://avatars.githubusercontent.com/u/5811204?"
        },
        "repo": {"id": 88214507, "name": "quay-labs/harbor-charts", "url": "https://api.github.com/repos/quay-labs/harbor-charts"},
        "payload": {"action": "started"},
        "public": true,
        "created_at": "2025-03-14T07:58:02Z",
        "org": {
          "id": 40117733, "login": "quay-labs", "gravatar_id": "",
          "url": "https://api.github.com/orgs/quay-labs",
          "avatar_url": "https://avatars.githubusercontent.com/u/40117733?"
        }
      },
      {
        "id": "41021873391",
        "type": "IssuesEvent",
        "actor": {
          "id": 5811204, "login": "maren-holt", "display_login": "maren-holt", "gravatar_id": "",
          "url": "https://api.github.com/users/maren-holt",
          "avatar_url": "https://avatars.githubusercontent.com/u/5811204?"
        },
        "repo": {"id": 88214507, "name": "quay-labs/harbor-charts", "url": "https://api.github.com/repos/quay-labs/harbor-charts"},
        "payload": {
          "action": "opened",
          "issue": {
            "url": "https://api.github.com/repos/quay-labs/harbor-charts/issues/212",
            "html_url": "https://github.com/quay-labs/harbor-charts/issues/212",
            "id": 2917380164,
            "number": 212,
            "title": "Depth chart ignores the chart datum setting",
            "user": {
              "id": 5811204, "login": "maren-holt", "gravatar_id": "",
              "url": "https://api.github.com/users/maren-holt",
              "avatar_url": "https://avatars.githubusercontent.com/u/5811204?"
            },
            "labels": [
              {"id": 1203344871, "name": "bug", "color": "d73a4a", "default": true, "description": "Something isn't working"},
              {"id": 1203352210, "name": "charts", "color": "0e8a16", "default": false, "description": null}
            ],
            "state": "open",
            "locked": false,
            "assignee": null,
            "comments": 0,
            "created_at": "2025-03-14T07:40:19Z",
            "updated_at": "2025-03-14T07:40:19Z",
            "closed_at": null,
            "body": "Switching the datum to LAT leaves the soundings as they were."
          }
        },
        "public": true,
        "created_at": "2025-03-14T07:40:20Z",
        "org": {
          "id": 40117733, "login": "quay-labs", "gravatar_id": "",
          "url": "https://api.github.com/orgs/quay-labs",
          "avatar_url": "https://avatars.githubusercontent.com/u/40117733?"
        }
      },
      {
        "id": "41020954477",
        "type": "ForkEvent",
        "actor": {
          "id": 5811204, "login": "maren-holt", "display_login": "maren-holt", "gravatar_id": "",
          "url": "https://api.github.com/users/maren-holt",
          "avatar_url": "https://avatars.githubusercontent.com/u/5811204?"
        },
        "repo": {"id": 88214507, "name": "quay-labs/harbor-charts", "url": "https://api.github.com/repos/quay-labs/harbor-charts"},
        "payload": {"forkee": {"id": 949120336, "name": "harbor-charts", "full_name": "maren-holt/harbor-charts"}},
        "public": true,
        "created_at": "2025-03-14T06:12:51Z",
        "org": {
          "id": 40117733, "login": "quay-labs", "gravatar_id": "",
          "url": "https://api.github.com/orgs/quay-labs",
          "avatar_url": "https://avatars.githubusercontent.com/u/40117733?"
        }
      },
      {
        "id": "41019640025",
        "type": "PushEvent",
        "actor": {
          "id": 5811204, "login": "maren-holt", "display_login": "maren-holt", "gravatar_id": "",
          "url": "https://api.github.com/users/maren-holt",
          "avatar_url": "https://avatars.githubusercontent.com/u/5811204?"
        },
        "repo": {"id": 702215563, "name": "maren-holt/tidewatch", "url": "https://api.github.com/repos/maren-holt/tidewatch"},
        "payload": {
          "repository_id": 702215563, "push_id": 19829766012, "size": 1, "distinct_size": 1,
          "ref": "refs/heads/station-gaps",
          "head": "3be8a0c6f1d7429e50b3ac98d2f6714e0c5b2a94",
          "before": "e07d5a9b3c2f48167a0d9e4b5c3f2a1d8e6b7c90",
          "commits": [
            {
              "sha": "3be8a0c6f1d7429e50b3ac98d2f6714e0c5b2a94",
              "author": {"email": "maren@example.org", "name": "Maren Holt"},
              "message": "Keep the last reading of each station",
              "distinct": true,
              "url": "https://api.github.com/repos/maren-holt/tidewatch/commits/3be8a0c6f1d7429e50b3ac98d2f6714e0c5b2a94"
            }
          ]
        },
        "public": true,
        "created_at": "2025-03-13T19:03:37Z"
      }
    ]
    """#
