#!/usr/bin/env node
import { runMcpCommand } from "@base-capability/client/mcp";

process.exitCode = await runMcpCommand(process.env);
