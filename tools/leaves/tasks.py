"""tasks: the staff to-do list (list, create ↺ delete, update, complete, delete)."""

from __future__ import annotations

import uuid
from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

from gym import tasks as service
from tools import confirm_summaries as card
from tools.context import ToolContext
from tools.dates import ToolDate
from tools.errors import not_found
from tools.registry import STAFF, Audit, Inverse, ToolRouter, by_id
from tools.restore import add_restore, restore_inverse

tasks = ToolRouter("tasks")
Priority = Literal["low", "normal", "high"]
NULLABLE = ("notes", "due_on")  # null clears these; a null title or priority is ignored


class TaskOut(BaseModel):
    id: uuid.UUID
    title: str
    status: str
    priority: str
    dueOn: date | None = None
    notes: str | None = None


def _out(task: service.Task) -> TaskOut:
    return TaskOut(id=task.id, title=task.title, status=task.status, priority=task.priority, dueOn=task.due_on,
                   notes=task.notes)


class ListTasksInput(BaseModel):
    status: Literal["open", "done", "all"] = Field("open", description="Which tasks to list.")
    limit: int = Field(20, ge=1, le=100)


class TaskList(BaseModel):
    count: int
    tasks: list[TaskOut]


@tasks.agent_tool(action="list", summary="List the gym's staff tasks (open by default).", input=ListTasksInput,
                  roles=STAFF,
                  loaded=True)
async def list_tasks(ctx: ToolContext, input: ListTasksInput) -> TaskList:
    rows = await service.list_tasks(ctx.session, ctx.org_id, status=None if input.status == "all" else input.status,
                                    limit=input.limit)
    return TaskList(count=len(rows), tasks=[_out(t) for t in rows])


class CreateTaskInput(BaseModel):
    title: str = Field(min_length=1, max_length=300, description="What needs doing, as a short imperative.")
    notes: str | None = Field(None, max_length=4000)
    dueOn: ToolDate | None = Field(None, description="Due date (YYYY-MM-DD) in the gym's timezone.")
    priority: Priority = "normal"


@tasks.agent_tool(action="create", summary="Create a staff task.", input=CreateTaskInput, roles=STAFF,
                  side_effects="write", audit=Audit("task", "task.create"),
                  inverse=Inverse("tasks", "delete", by_id),
                  loaded=True)
async def create_task(ctx: ToolContext, input: CreateTaskInput) -> TaskOut:
    task = await service.create_task(ctx.session, ctx.org_id, title=input.title, notes=input.notes,
                                     due_on=input.dueOn, priority=input.priority, created_by=ctx.caller.user_id)
    return _out(task)


class UpdateTaskInput(BaseModel):
    id: uuid.UUID = Field(description="Task id from tasks__list or tasks__create.")
    title: str | None = Field(None, min_length=1, max_length=300)
    notes: str | None = Field(None, max_length=4000)
    dueOn: ToolDate | None = None
    priority: Priority | None = None


def _found(task: service.Task | None, task_id: uuid.UUID) -> service.Task:
    if task is None:
        raise not_found("task", task_id)
    return task


@tasks.agent_tool(action="update", summary="Change a task's title, notes, due date or priority.",
                  input=UpdateTaskInput, roles=STAFF, side_effects="write", audit=Audit("task", "task.update"),
                  loaded=True)
async def update_task(ctx: ToolContext, input: UpdateTaskInput) -> TaskOut:
    changes = {column: getattr(input, field) for field, column in
               (("title", "title"), ("notes", "notes"), ("dueOn", "due_on"), ("priority", "priority"))
               if field in input.model_fields_set and (getattr(input, field) is not None or column in NULLABLE)}
    return _out(_found(await service.update_task(ctx.session, ctx.org_id, input.id, changes), input.id))


class TaskIdInput(BaseModel):
    id: uuid.UUID = Field(description="Task id.")


@tasks.agent_tool(action="complete", summary="Mark a task done.", input=TaskIdInput, roles=STAFF,
                  side_effects="write", audit=Audit("task", "task.complete"),
                  loaded=True)
async def complete_task(ctx: ToolContext, input: TaskIdInput) -> TaskOut:
    task = await service.update_task(ctx.session, ctx.org_id, input.id, {"status": "done", "completed_at": ctx.now})
    return _out(_found(task, input.id))


@tasks.agent_tool(action="delete", summary="Delete a task (soft delete). Needs the user's confirmation.",
                  input=TaskIdInput, roles=STAFF, side_effects="write", confirm="destructive",
                  audit=Audit("task", "task.delete"), inverse=restore_inverse("tasks"),
                  describe=card.delete_task,
                  loaded=True)
async def delete_task(ctx: ToolContext, input: TaskIdInput) -> TaskOut:
    return _out(_found(await service.soft_delete_task(ctx.session, ctx.org_id, input.id, ctx.now), input.id))


add_restore(tasks, model=service.Task, entity="task", roles=STAFF)
